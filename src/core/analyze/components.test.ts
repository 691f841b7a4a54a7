/**
 * find_components, table-driven: one file per case, in memory, through callTool with the
 * real parsers; each row lists the components expected (or none for look-alikes).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { QuarryError } from '../errors';
import { MemorySource, type MemoryTree } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool } from '../tools';
import type { ToolContext } from '../tools/types';
import { sharedSourceParsers } from './parsers';

const parsers = () => sharedSourceParsers(nodeGrammarLoader);
const ctx = (tree: MemoryTree): ToolContext => ({
  workspace: new Workspace([new MemorySource(tree, { name: 'lib' })]),
  parsers,
});

beforeAll(async () => {
  await parsers();
}, 60_000);

type Want = {
  name: string;
  type: 'function' | 'arrow';
  kind: string;
  exported: boolean;
  default: boolean;
  line?: number;
  wrappers?: string[];
  anonymous?: boolean;
};

async function components(tree: MemoryTree, args: Record<string, unknown> = {}) {
  return (await callTool('find_components', args, ctx(tree))) as any;
}

const noError = (): QuarryError => {
  throw new Error('expected an error');
};

const pick = (c: any, want: Want) => Object.fromEntries(Object.keys(want).map((k) => [k, c[k]]));

describe('find_components: every form', () => {
  const cases: Array<[string, string, string, Want[]]> = [
    [
      'export function',
      'Button.tsx',
      'export function Button() {\n  return <button />;\n}\n',
      [{ name: 'Button', type: 'function', kind: 'function', exported: true, default: false, line: 1 }],
    ],
    [
      'export const arrow, expression body',
      'Card.tsx',
      'export const Card = () => <div />;\n',
      [{ name: 'Card', type: 'arrow', kind: 'arrow', exported: true, default: false }],
    ],
    [
      'export const arrow, block body',
      'Card.tsx',
      'export const Card = (p: { t: string }) => {\n  return <h2>{p.t}</h2>;\n};\n',
      [{ name: 'Card', type: 'arrow', kind: 'arrow', exported: true, default: false }],
    ],
    [
      'function expression',
      'Row.tsx',
      'export const Row = function () { return <tr />; };\n',
      [{ name: 'Row', type: 'function', kind: 'function', exported: true, default: false }],
    ],
    [
      'export default function',
      'Avatar.jsx',
      'export default function Avatar() { return <img />; }\n',
      [{ name: 'Avatar', type: 'function', kind: 'function', exported: true, default: true }],
    ],
    [
      'anonymous default arrow, named after its folder',
      'status-pill/index.tsx',
      'export default () => <span />;\n',
      [{ name: 'StatusPill', type: 'arrow', kind: 'arrow', exported: true, default: true, anonymous: true }],
    ],
    [
      'anonymous default function, named after its file',
      'user-menu.jsx',
      'export default function () { return <nav />; }\n',
      [
        {
          name: 'UserMenu',
          type: 'function',
          kind: 'function',
          exported: true,
          default: true,
          anonymous: true,
        },
      ],
    ],
    [
      'default export of a local',
      'Badge.js',
      'const Badge = () => <b />;\nexport default Badge;\n',
      [{ name: 'Badge', type: 'arrow', kind: 'arrow', exported: true, default: true }],
    ],
    [
      'export { X as default }',
      'Tag.tsx',
      'function Tag() { return <i />; }\nexport { Tag as default };\n',
      [{ name: 'Tag', type: 'function', kind: 'function', exported: true, default: true }],
    ],
    [
      'export { X }',
      'Tag.tsx',
      'function Tag() { return <i />; }\nexport { Tag };\n',
      [{ name: 'Tag', type: 'function', kind: 'function', exported: true, default: false }],
    ],
    [
      'not exported',
      'Local.tsx',
      'function Local() { return <i />; }\n',
      [{ name: 'Local', type: 'function', kind: 'function', exported: false, default: false }],
    ],
    [
      'memo(arrow)',
      'M.tsx',
      "import { memo } from 'react';\nexport const M = memo(() => <div />);\n",
      [{ name: 'M', type: 'arrow', kind: 'memo', exported: true, default: false, wrappers: ['memo'] }],
    ],
    [
      'React.memo(function)',
      'M.tsx',
      'export const M = React.memo(function M() { return <div />; });\n',
      [{ name: 'M', type: 'function', kind: 'memo', exported: true, default: false, wrappers: ['memo'] }],
    ],
    [
      'forwardRef',
      'In.tsx',
      'export const In = forwardRef<HTMLInputElement, P>((p, ref) => <input ref={ref} />);\n',
      [
        {
          name: 'In',
          type: 'arrow',
          kind: 'forwardRef',
          exported: true,
          default: false,
          wrappers: ['forwardRef'],
        },
      ],
    ],
    [
      'memo(forwardRef(...))',
      'In.tsx',
      'export const In = memo(React.forwardRef(function In(p, ref) { return <input ref={ref} />; }));\n',
      [
        {
          name: 'In',
          type: 'function',
          kind: 'memo',
          exported: true,
          default: false,
          wrappers: ['memo', 'forwardRef'],
        },
      ],
    ],
    [
      'export default memo(local)',
      'T.tsx',
      'const T = forwardRef(() => <p />);\nexport default memo(T);\n',
      [{ name: 'T', type: 'arrow', kind: 'forwardRef', exported: true, default: true }],
    ],
    [
      'export default memo(anonymous)',
      'fancy-box.tsx',
      'export default memo(() => <div />);\n',
      [{ name: 'FancyBox', type: 'arrow', kind: 'memo', exported: true, default: true, anonymous: true }],
    ],
    [
      'class extends React.Component',
      'C.jsx',
      'export class C extends React.Component { render() { return <div />; } }\n',
      [{ name: 'C', type: 'function', kind: 'class', exported: true, default: false }],
    ],
    [
      'class extends Component',
      'C.jsx',
      "import { Component } from 'react';\nclass C extends Component { render() { return null; } }\n",
      [{ name: 'C', type: 'function', kind: 'class', exported: false, default: false }],
    ],
    [
      'class extends PureComponent<P> (TS)',
      'C.tsx',
      'export default class C extends React.PureComponent<P> { render() { return <div />; } }\n',
      [{ name: 'C', type: 'function', kind: 'class', exported: true, default: true }],
    ],
    [
      'anonymous default class',
      'legacy-panel.jsx',
      'export default class extends Component { render() { return <div />; } }\n',
      [
        {
          name: 'LegacyPanel',
          type: 'function',
          kind: 'class',
          exported: true,
          default: true,
          anonymous: true,
        },
      ],
    ],
    [
      'const X = class extends Component',
      'K.jsx',
      'export const K = class extends Component {};\n',
      [{ name: 'K', type: 'function', kind: 'class', exported: true, default: false }],
    ],
    [
      'React.createElement in .ts',
      'Logo.ts',
      "export function Logo() { return React.createElement('svg'); }\n",
      [{ name: 'Logo', type: 'function', kind: 'function', exported: true, default: false }],
    ],
    [
      'a local holding JSX',
      'F.tsx',
      'export function F() {\n  const el = <footer />;\n  return el;\n}\n',
      [{ name: 'F', type: 'function', kind: 'function', exported: true, default: false }],
    ],
    [
      'conditional and logical returns',
      'G.tsx',
      'export function G({ on }) {\n  if (!on) return null;\n  return on && <p />;\n}\n',
      [{ name: 'G', type: 'function', kind: 'function', exported: true, default: false }],
    ],
    [
      'a list of elements',
      'L.tsx',
      'export const L = ({ xs }) => xs.map((x) => <li key={x}>{x}</li>);\n',
      [{ name: 'L', type: 'arrow', kind: 'arrow', exported: true, default: false }],
    ],
    [
      'a portal',
      'P.jsx',
      'export const P = () => createPortal(<div />, document.body);\n',
      [{ name: 'P', type: 'arrow', kind: 'arrow', exported: true, default: false }],
    ],
    [
      'a fragment',
      'Fr.tsx',
      'export const Fr = () => <>x</>;\n',
      [{ name: 'Fr', type: 'arrow', kind: 'arrow', exported: true, default: false }],
    ],
    [
      'CommonJS module.exports',
      'Cjs.js',
      'function Cjs() { return <div />; }\nmodule.exports = Cjs;\n',
      [{ name: 'Cjs', type: 'function', kind: 'function', exported: true, default: true }],
    ],
    [
      'CommonJS module.exports = { ... }',
      'cjs.js',
      'const A = () => <a />;\nfunction B() { return <b />; }\nconst C = () => <i />;\nmodule.exports = { A, Bee: B };\n',
      [
        { name: 'A', type: 'arrow', kind: 'arrow', exported: true, default: false },
        { name: 'B', type: 'function', kind: 'function', exported: true, default: false },
        { name: 'C', type: 'arrow', kind: 'arrow', exported: false, default: false },
      ],
    ],
    [
      'CommonJS exports.X = X',
      'cjs2.js',
      'const X = () => <a />;\nexports.X = X;\n',
      [{ name: 'X', type: 'arrow', kind: 'arrow', exported: true, default: false }],
    ],
    [
      '.mjs',
      'Esm.mjs',
      'export function Esm() { return <div />; }\n',
      [{ name: 'Esm', type: 'function', kind: 'function', exported: true, default: false }],
    ],
    [
      'several declarators',
      'Multi.tsx',
      'export const A = () => <a />, b = () => <b />, C = 3, D = () => <div />;\n',
      [
        { name: 'A', type: 'arrow', kind: 'arrow', exported: true, default: false },
        { name: 'D', type: 'arrow', kind: 'arrow', exported: true, default: false },
      ],
    ],
    // look-alikes: none of these is a component
    ['a capitalised constant', 'api.ts', 'export const API_URL = "https://api.example.com";\n', []],
    ['a config object', 'cfg.tsx', 'export const Config = { render: () => <div /> };\n', []],
    [
      'a capitalised non-JSX function',
      'fmt.tsx',
      'export function FormatDate(d: Date) { return d.toISOString(); }\n',
      [],
    ],
    ['a capitalised non-JSX arrow', 'sum.tsx', 'export const Sum = (a: number, b: number) => a + b;\n', []],
    ['a hook returning JSX', 'hook.tsx', 'export function useThing() { return <div />; }\n', []],
    ['a render helper', 'row.tsx', 'export const renderRow = () => <tr />;\n', []],
    [
      'JSX only in a nested callback of a returned object',
      'cols.tsx',
      'export function Columns() {\n  return [{ render: () => <td /> }];\n}\n',
      [],
    ],
    [
      'JSX only in a nested function',
      'wrap.tsx',
      'export function Wrap() {\n  function inner() { return <div />; }\n  return inner;\n}\n',
      [],
    ],
    ['a plain class', 'store.tsx', 'export class Store { render() { return <div />; } }\n', []],
    [
      'a class extending something else',
      'w.tsx',
      'export class Widget extends Base { render() { return <div />; } }\n',
      [],
    ],
    ['memo of a non-function', 'mm.tsx', 'export const Cached = memo(Other);\n', []],
    [
      'a type and an interface',
      't.ts',
      'export type Props = { a: string };\nexport interface ButtonProps { b: number }\n',
      [],
    ],
    [
      'a component nested in a function (not module level)',
      'n.tsx',
      'export function makeThing() {\n  const Inner = () => <div />;\n  return Inner;\n}\n',
      [],
    ],
    ['a file that is not a script', 'Button.md', '# export function Button() { return <button /> }\n', []],
    ['an empty file', 'Empty.tsx', '', []],
  ];
  it.each(cases)('%s', async (_n, path, source, want) => {
    const r = await components({ [path]: source });
    expect(r.components.map((c: any, i: number) => pick(c, want[i] ?? ({ name: '?' } as Want)))).toEqual(
      want,
    );
    expect(r.total).toBe(want.length);
    for (const c of r.components) expect(c.path).toBe(path);
  });

  it('keeps what tree-sitter recovers from a file with a syntax error', async () => {
    const r = await components({
      'Broken.tsx': 'export function Good() { return <div />; }\nexport const Bad = ( => {;\n',
    });
    expect(r.components.map((c: any) => c.name)).toContain('Good');
  });

  it('gives line and endLine of the declaration (the export line)', async () => {
    const r = await components({ 'X.tsx': '// header\n\nexport const X = memo(\n  () => <div />,\n);\n' });
    expect(r.components[0]).toMatchObject({ name: 'X', line: 3, endLine: 5 });
  });
});

describe('find_components: uses', () => {
  const tree: MemoryTree = {
    'ui/Button.tsx':
      "export function Button() { return <button />; }\nButton.displayName = 'Button';\nexport default memo(Button);\n",
    'ui/index.ts': "export { Button } from './Button';\nimport * as UI from './Button';\n",
    'app/Page.tsx': [
      "import { Button } from '../ui/Button';",
      "import * as UI from '../ui';",
      'export function Page() {',
      '  return (',
      '    <main>',
      '      <Button></Button>',
      '      <UI.Button />',
      '      {createElement(Button, {})}',
      '    </main>',
      '  );',
      '}',
      'const routes = [{ component: Button }];',
      'type T = Button;',
      'module.exports = { Button };',
    ].join('\n'),
  };
  it('counts JSX tags and references, not imports, exports, statics, closing tags or types', async () => {
    const r = await components(tree, { namePattern: '^Button$' });
    expect(r.components).toHaveLength(1);
    expect(r.components[0].uses).toEqual({
      count: 4,
      places: [
        { path: 'app/Page.tsx', line: 6 },
        { path: 'app/Page.tsx', line: 7 },
        { path: 'app/Page.tsx', line: 8 },
        { path: 'app/Page.tsx', line: 12 },
      ],
    });
  });
  it('counts uses across the whole workspace even when directory narrows the definitions', async () => {
    const r = await components(tree, { directory: 'ui' });
    expect(r.components.map((c: any) => [c.name, c.uses.count])).toEqual([['Button', 4]]);
  });
});

describe('find_components: arguments', () => {
  const tree: MemoryTree = {
    'src/forms/LoginForm.tsx': 'export const LoginForm = () => <form />;\n',
    'src/forms/SignupForm.tsx': 'export const SignupForm = () => <form />;\n',
    'src/Button.tsx':
      'export const Button = () => <button />;\nexport const IconButton = () => <Button />;\n',
  };
  const names = async (args: Record<string, unknown>) =>
    (await components(tree, args)).components.map((c: any) => c.name);
  const cases: Array<[string, Record<string, unknown>, string[]]> = [
    ['no arguments: everything, in walk order', {}, ['Button', 'IconButton', 'LoginForm', 'SignupForm']],
    ['namePattern is unanchored', { namePattern: 'Button' }, ['Button', 'IconButton']],
    ["the seed's example", { namePattern: '.*Form' }, ['LoginForm', 'SignupForm']],
    ['namePattern is case-sensitive', { namePattern: 'button' }, []],
    ['anchored', { namePattern: '^Button$' }, ['Button']],
    [
      'an empty namePattern matches all',
      { namePattern: '' },
      ['Button', 'IconButton', 'LoginForm', 'SignupForm'],
    ],
    ['directory', { directory: 'src/forms' }, ['LoginForm', 'SignupForm']],
    ['directory with ./ and a trailing slash', { directory: './src/forms/' }, ['LoginForm', 'SignupForm']],
    ['directory naming a file', { directory: 'src/Button.tsx' }, ['Button', 'IconButton']],
    ['directory and namePattern', { directory: 'src/forms', namePattern: '^Login' }, ['LoginForm']],
    [
      'null arguments are absent',
      { namePattern: null, directory: null },
      ['Button', 'IconButton', 'LoginForm', 'SignupForm'],
    ],
  ];
  it.each(cases)('%s', async (_n, args, want) => {
    expect(await names(args)).toEqual(want);
  });

  const bad: Array<[string, unknown, string, string, RegExp]> = [
    [
      'an invalid regex',
      { namePattern: '(' },
      'InvalidPattern',
      'namePattern',
      /^namePattern is not a valid regex: regex parse error/,
    ],
    ['a regex with a bad escape', { namePattern: '\\q' }, 'InvalidPattern', 'namePattern', /namePattern/],
    [
      'a namePattern that is not a string',
      { namePattern: 3 },
      'InvalidArgument',
      'namePattern',
      /namePattern must be a string/,
    ],
    [
      'a directory that is not a string',
      { directory: ['src'] },
      'InvalidArgument',
      'directory',
      /directory must be a string/,
    ],
    [
      'a directory escaping the root',
      { directory: '../outside' },
      'PathOutsideRoot',
      'directory',
      /directory escapes the root/,
    ],
    [
      'an absolute directory outside the root',
      { directory: '/etc' },
      'PathOutsideRoot',
      'directory',
      /directory is outside every root/,
    ],
    [
      'a directory that does not exist',
      { directory: 'src/nope' },
      'NotFound',
      'directory',
      /directory not found: "src\/nope"/,
    ],
    ['arguments that are not an object', [1], 'InvalidArgument', '(arguments)', /JSON object/],
  ];
  it.each(bad)('refuses %s', async (_n, args, code, field, message) => {
    const err = await callTool('find_components', args, ctx(tree)).then(
      noError,
      (e: unknown) => e as QuarryError,
    );
    expect(err).toBeInstanceOf(QuarryError);
    expect(err.code).toBe(code);
    expect(err.data.field).toBe(field);
    expect(err.message).toMatch(message);
  });

  it('says so when the host provides no parsers', async () => {
    const err = await callTool(
      'find_components',
      {},
      { workspace: new Workspace([new MemorySource(tree)]) },
    ).then(noError, (e: unknown) => e as QuarryError);
    expect(err).toBeInstanceOf(QuarryError);
    expect(err.code).toBe('EngineError');
    expect(err.message).toMatch(/find_components needs the JavaScript\/TypeScript parsers/);
  });

  it('validates before it needs parsers', async () => {
    const err = await callTool(
      'find_components',
      { namePattern: '(' },
      { workspace: new Workspace([new MemorySource(tree)]) },
    ).then(noError, (e: unknown) => e as QuarryError);
    expect(err.code).toBe('InvalidPattern');
  });

  it('prefixes paths by root name in a workspace of several roots', async () => {
    const ws = new Workspace([
      new MemorySource({ 'A.tsx': 'export const A = () => <a />;\n' }, { name: 'one' }),
      new MemorySource({ 'B.jsx': 'export const B = () => <A />;\n' }, { name: 'two' }),
    ]);
    const r = (await callTool('find_components', {}, { workspace: ws, parsers })) as any;
    expect(r.components.map((c: any) => [c.name, c.path, c.uses.places])).toEqual([
      ['A', 'one/A.tsx', [{ path: 'two/B.jsx', line: 1 }]],
      ['B', 'two/B.jsx', []],
    ]);
    const scoped = (await callTool(
      'find_components',
      { directory: 'two' },
      { workspace: ws, parsers },
    )) as any;
    expect(scoped.components.map((c: any) => c.name)).toEqual(['B']);
  });

  it('re-parses a file only when its text changes', async () => {
    const source = new MemorySource({ 'X.tsx': 'export const X = () => <div />;\n' });
    const c: ToolContext = { workspace: new Workspace([source]), parsers };
    expect(((await callTool('find_components', {}, c)) as any).components.map((x: any) => x.name)).toEqual([
      'X',
    ]);
    source.write('X.tsx', 'export const Y = () => <div />;\n');
    expect(((await callTool('find_components', {}, c)) as any).components.map((x: any) => x.name)).toEqual([
      'Y',
    ]);
  });
});

describe('find_components: minified bundles', () => {
  /** A one-line bundle (a `.min.js` name) that holds a component and uses another. */
  const bundle = (n: number) =>
    'export function Inner(){return React.createElement("div")};export const Outer=()=>React.createElement(Card);' +
    Array.from({ length: n }, (_, i) => `function m${i}(a){return a+${i}};`).join('');

  it('leaves a minified bundle out and says why, as the indexes do; the code beside it is listed', async () => {
    const r = await components({
      'vendor/lib.min.js': bundle(200),
      'src/Card.tsx': 'export const Card = () => <div />;\n',
    });
    expect(r.components.map((c: any) => [c.name, c.uses.places])).toEqual([['Card', []]]);
    expect(r.skipped).toEqual([
      {
        path: 'vendor/lib.min.js',
        reason: 'minified',
        detail: expect.stringMatching(/^1 line of [\d,]+ characters/),
      },
    ]);
  });

  it('parses the same text under a name that does not say it is built, while its line is short', async () => {
    const r = await components({ 'vendor/lib.js': bundle(20) });
    expect(r.components.map((c: any) => c.name).sort()).toEqual(['Inner', 'Outer']);
    expect(r.skipped).toEqual([]);
  });
});
