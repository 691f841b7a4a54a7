/**
 * The chunker, table-driven: each fixture (a hand-written file under fixtures/, stored with
 * a `.txt` suffix so tsc and lint leave it alone) and each inline case lists every chunk.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { chunksOf, fixture, type Row } from './rows.testutil';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { QuarryError } from '../errors';
import { Chunker, INDEXED_EXTENSIONS, innermostChunkAt, languageForPath } from './index';

// Tests may reach across layers (the quarry/layers lint rule exempts them): the Node loader.
const testLoader = nodeGrammarLoader;

let chunker: Chunker;
beforeAll(async () => {
  // Grammars load lazily: these tests use the synchronous chunkFile, so load what they parse.
  chunker = await Chunker.create(testLoader, {
    languages: ['typescript', 'tsx', 'javascript', 'python', 'go', 'rust'],
  });
});

const FIXTURES: { file: string; want: Row[] }[] = [
  {
    file: 'sample.ts',
    want: [
      [3, 8, 'function', 'add'], // doc comment attached
      [12, 14, 'function', 'main'], // export default async generator; the comment above has a blank line after it
      [16, 16, 'const', 'API_URL'], // exported const; `const internal` and `export let` are not chunks
      [20, 21, 'function', 'double'],
      [22, 24, 'function', 'triple'],
      [26, 50, 'class', 'UserService'], // starts at its decorator
      [31, 33, 'method', 'UserService.constructor'],
      [35, 39, 'method', 'UserService.findById'], // doc comment + decorator
      [41, 43, 'method', 'UserService.size'], // getter
      [45, 45, 'method', 'UserService.size'], // setter
      [47, 49, 'method', 'UserService.handle'], // arrow-function field
      [52, 54, 'interface', 'User'],
      [56, 56, 'type', 'Id'],
      [58, 61, 'enum', 'Color'],
      [63, 67, 'module', 'Geometry'],
      [64, 66, 'function', 'area'],
      [69, 71, 'module', 'virtual:config'],
      [70, 70, 'const', 'config'],
      [73, 73, 'function', 'overloaded'],
      [74, 74, 'function', 'overloaded'],
      [75, 77, 'function', 'overloaded'],
    ],
  },
  {
    file: 'component.tsx',
    want: [
      [3, 3, 'const', 'API_URL'],
      [5, 8, 'component', 'Button'], // memo(function Button ...)
      [10, 12, 'component', 'Input'], // forwardRef<...>(arrow)
      [14, 14, 'component', 'Wrapped'], // React.memo(React.forwardRef(...))
      [16, 22, 'component', 'App'], // export default, fragment
      [24, 26, 'function', 'Helper'], // capitalised but no JSX
      [28, 30, 'function', 'useThing'],
      [32, 32, 'const', 'Plain'], // memo without JSX: just an exported const
      [34, 38, 'class', 'Legacy'],
      [35, 37, 'method', 'Legacy.render'],
    ],
  },
  {
    file: 'sample.jsx',
    want: [
      [4, 9, 'component', 'Greeting'],
      [11, 11, 'function', 'default'], // anonymous default arrow (lowercase name: not a component)
      [13, 15, 'function', 'legacy'], // var + function expression
      [17, 19, 'function', 'handler'],
      [21, 29, 'class', 'Store'],
      [23, 25, 'method', 'Store.create'],
      [26, 28, 'method', 'Store.add'],
    ],
  },
  {
    file: 'sample.py',
    want: [
      [7, 9, 'function', 'load'],
      [12, 29, 'class', 'Config'], // from @dataclass
      [19, 22, 'method', 'Config.upper'], // comment + @property
      [24, 25, 'method', 'Config.fetch'], // async def
      [27, 29, 'class', 'Inner'],
      [28, 29, 'method', 'Inner.deep'],
      [32, 37, 'function', 'index'], // two decorators; `nested` is not a chunk
    ],
  },
  {
    file: 'sample.go',
    want: [
      [6, 9, 'struct', 'Store'],
      [11, 14, 'interface', 'Reader'],
      [16, 16, 'type', 'ID'],
      [18, 18, 'type', 'Alias'],
      [21, 22, 'struct', 'A'], // grouped spec with its own comment
      [23, 23, 'interface', 'B'],
      [26, 29, 'function', 'New'],
      [31, 33, 'method', 'Store.Add'], // *Store -> Store
      [35, 35, 'method', 'List.Len'], // List[T] -> List
    ],
  },
  {
    file: 'sample.rs',
    want: [
      [4, 8, 'struct', 'Point'], // /// doc + #[derive]
      [10, 14, 'impl', 'fmt::Display for Point<T>'],
      [11, 13, 'method', 'Point.fmt'],
      [16, 21, 'impl', 'Point<i32>'],
      [17, 20, 'method', 'Point.new'],
      [23, 28, 'trait', 'Shape'],
      [24, 24, 'method', 'Shape.area'],
      [25, 27, 'method', 'Shape.name'],
      [30, 33, 'enum', 'Kind'],
      [35, 35, 'type', 'Result'],
      [39, 47, 'module', 'tests'], // `mod external;` has no body: no chunk
      [43, 46, 'function', 'it_works'],
      [49, 49, 'function', 'main'],
    ],
  },
  {
    file: 'readme.md',
    want: [
      [7, 10, 'section', 'Quarry'], // front matter and the intro are preamble
      [11, 21, 'section', 'Install'], // closing #s dropped; fenced and indented `#` lines are not headings
      [22, 23, 'section', 'Usage'],
    ],
  },
  {
    file: 'broken.ts',
    want: [
      [1, 3, 'function', 'ok'],
      [9, 11, 'class', 'Survivor'],
      [10, 10, 'method', 'Survivor.method'],
    ],
  },
  {
    file: 'broken.py',
    want: [
      [1, 2, 'function', 'ok'],
      [4, 5, 'function', 'broken'],
      [7, 9, 'class', 'Survivor'],
      [8, 9, 'method', 'Survivor.method'],
    ],
  },
];

describe('Chunker fixtures', () => {
  it.each(FIXTURES)('$file', ({ file, want }) => {
    const path = `src/${file}`;
    expect(chunker.chunkFile(path, fixture(file))).toEqual(chunksOf(path, want));
  });

  it.each(FIXTURES)('$file with CRLF line ends gives the same chunks', ({ file, want }) => {
    expect(chunker.chunkFile(file, fixture(file).replace(/\n/g, '\r\n'))).toEqual(chunksOf(file, want));
  });

  it.each(FIXTURES)('$file with a BOM gives the same chunks', ({ file, want }) => {
    expect(chunker.chunkFile(file, '\uFEFF' + fixture(file))).toEqual(chunksOf(file, want));
  });

  it('is sorted by startLine, then the larger range first', () => {
    for (const { file } of FIXTURES) {
      const got = chunker.chunkFile(file, fixture(file));
      for (let i = 1; i < got.length; i++) {
        const [a, b] = [got[i - 1], got[i]];
        expect(a.startLine < b.startLine || (a.startLine === b.startLine && a.endLine >= b.endLine)).toBe(
          true,
        );
      }
    }
  });
});

const INLINE: { name: string; path: string; text: string; want: Row[] }[] = [
  { name: 'empty ts', path: 'e.ts', text: '', want: [] },
  { name: 'empty tsx', path: 'e.tsx', text: '', want: [] },
  { name: 'empty js', path: 'e.js', text: '', want: [] },
  { name: 'empty py', path: 'e.py', text: '', want: [] },
  { name: 'empty go', path: 'e.go', text: '', want: [] },
  { name: 'empty rs', path: 'e.rs', text: '', want: [] },
  { name: 'empty md', path: 'e.md', text: '', want: [] },
  { name: 'blank lines only', path: 'e.ts', text: '\n\n  \r\n', want: [] },
  { name: 'only a preamble', path: 'p.ts', text: "import a from 'a';\nconsole.log(a);\n", want: [] },
  { name: 'markdown without headings', path: 'n.md', text: 'just text\n```\n# code\n```\n', want: [] },
  {
    name: 'several declarators: one chunk each, the first starts at the statement',
    path: 'd.ts',
    text: '// doc\nexport const a = () => 1,\n  b = 2,\n  c = function () {};\n',
    want: [
      [1, 2, 'function', 'a'],
      [3, 3, 'const', 'b'],
      [4, 4, 'function', 'c'],
    ],
  },
  {
    name: 'a trailing comment of the previous line is not attached',
    path: 't.ts',
    text: 'const é = "😀"; // about é\nfunction f() {}\n',
    want: [[2, 2, 'function', 'f']],
  },
  {
    name: 'a run of comments attaches as a whole, up to a blank line',
    path: 'r.ts',
    text: '// one\n\n// two\n/* three */\nfunction f() {}\n',
    want: [[3, 5, 'function', 'f']],
  },
  {
    name: 'export default class and anonymous default function',
    path: 'dc.ts',
    text: 'export default class {\n  m() {}\n}\n',
    want: [
      [1, 3, 'class', 'default'],
      [2, 2, 'method', 'default.m'],
    ],
  },
  {
    name: 'class expression assigned to a const',
    path: 'ce.js',
    text: 'const Foo = class {\n  bar() {}\n};\n',
    want: [
      [1, 3, 'class', 'Foo'],
      [2, 2, 'method', 'Foo.bar'],
    ],
  },
  {
    name: '.mjs and .cjs use the javascript grammar',
    path: 'x.mjs',
    text: 'export function f() {}\nexport const g = async () => {};\n',
    want: [
      [1, 1, 'function', 'f'],
      [2, 2, 'function', 'g'],
    ],
  },
  {
    name: 'JSX in .cjs',
    path: 'x.cjs',
    text: 'const Box = () => <div />;\nmodule.exports = Box;\n',
    want: [[1, 1, 'component', 'Box']],
  },
  {
    name: '.ts has no JSX, so no components',
    path: 'x.ts',
    text: 'export const Box = () => null;\n',
    want: [[1, 1, 'function', 'Box']],
  },
  {
    name: '.d.ts declarations',
    path: 'lib.d.ts',
    text: 'declare global {\n  interface Window { x: 1 }\n}\nexport declare function f(a: string): void;\nexport declare class C {\n  m(): void;\n}\n',
    want: [
      [1, 3, 'module', 'global'],
      [2, 2, 'interface', 'Window'],
      [4, 4, 'function', 'f'],
      [5, 7, 'class', 'C'],
      [6, 6, 'method', 'C.m'],
    ],
  },
  {
    name: 'rust attribute with a blank line still belongs to the item',
    path: 'a.rs',
    text: '#[inline]\n\nfn f() {}\n',
    want: [[1, 3, 'function', 'f']],
  },
  {
    name: 'python: decorators and comments above the first method of a class',
    path: 'c.py',
    text: 'class A:\n    # first\n    @staticmethod\n    def f():\n        pass\n',
    want: [
      [1, 5, 'class', 'A'],
      [2, 5, 'method', 'A.f'],
    ],
  },
  {
    name: 'go: a lone comment separated by a blank line stays preamble',
    path: 'm.go',
    text: 'package m\n\n// orphan\n\nfunc F() {}\n',
    want: [[5, 5, 'function', 'F']],
  },
  {
    name: 'markdown: sections end before the next heading of any level; ~~~ fences',
    path: 'h.md',
    text: '# A\ntext\n~~~\n## no\n~~~\n### B\n#\n   ###### C #\n####### seven is text\n',
    want: [
      [1, 5, 'section', 'A'],
      [6, 6, 'section', 'B'],
      [7, 7, 'section', ''],
      [8, 9, 'section', 'C'],
    ],
  },
  {
    name: 'markdown CRLF heading text has no \\r',
    path: 'h.md',
    text: '# Title\r\nbody\r\n## Next\r\n',
    want: [
      [1, 2, 'section', 'Title'],
      [3, 3, 'section', 'Next'],
    ],
  },
  {
    name: 'an unclosed fence swallows the rest',
    path: 'u.md',
    text: '# A\n```\n# B\n',
    want: [[1, 3, 'section', 'A']],
  },
];

describe('Chunker inline cases', () => {
  it.each(INLINE)('$name', ({ path, text, want }) => {
    expect(chunker.chunkFile(path, text)).toEqual(chunksOf(path, want));
  });

  it('never throws on garbage in any language', () => {
    const garbage = [
      '}}}{{{',
      '\0\0\0',
      'def class fn func (((',
      '<<<>>>'.repeat(100),
      '"unterminated',
      '\u0000'.repeat(10) + '\uFFFF',
    ];
    for (const ext of INDEXED_EXTENSIONS) {
      for (const g of garbage) expect(Array.isArray(chunker.chunkFile(`g.${ext}`, g))).toBe(true);
    }
  });

  it('throws Unreadable for a file type it does not index', () => {
    expect(() => chunker.chunkFile('a.TS', 'x')).toThrowError(QuarryError);
    try {
      chunker.chunkFile('a.txt', 'x');
    } catch (err) {
      expect((err as QuarryError).code).toBe('Unreadable');
    }
  });

  it('maxParseMs gives up on a slow file with Unreadable/parse-timeout, and the parser still works after', async () => {
    const hasty = await Chunker.create(testLoader, { languages: ['typescript'], maxParseMs: 1 });
    const big = fixture('sample.ts').repeat(2000);
    let caught: unknown;
    try {
      hasty.chunkFile('big.ts', big);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(QuarryError);
    expect((caught as QuarryError).code).toBe('Unreadable');
    expect((caught as QuarryError).data).toMatchObject({ path: 'big.ts', reason: 'parse-timeout' });
    expect(hasty.chunkFile('s.ts', 'function f() {}\n')).toEqual(chunksOf('s.ts', [[1, 1, 'function', 'f']]));
    hasty.dispose();
  });

  it('throws Unreadable for a language whose grammar was not loaded', async () => {
    const onlyGo = await Chunker.create(testLoader, { languages: ['go'] });
    expect(onlyGo.chunkFile('a.go', 'package a\nfunc F() {}\n')).toEqual(
      chunksOf('a.go', [[2, 2, 'function', 'F']]),
    );
    expect(() => onlyGo.chunkFile('a.py', 'def f(): pass')).toThrowError(/No python grammar loaded/);
    onlyGo.dispose();
  });
});

describe('languageForPath', () => {
  it.each([
    ['a.ts', 'typescript'],
    ['a.d.ts', 'typescript'],
    ['a.TS', null],
    ['a.tsx', 'tsx'],
    ['a.js', 'javascript'],
    ['a.jsx', 'javascript'],
    ['x.mjs', 'javascript'],
    ['x.cjs', 'javascript'],
    ['m.py', 'python'],
    ['m.go', 'go'],
    ['lib.rs', 'rust'],
    ['README.md', 'markdown'],
    ['README.MD', null],
    ['src\\win\\a.ts', 'typescript'],
    ['dir.ts/file', null],
    ['.ts', null],
    ['Makefile', null],
    ['a.ts.map', null],
    ['a.json', null],
  ] as const)('%s -> %s', (path, want) => {
    expect(languageForPath(path)).toBe(want);
  });

  it('covers exactly the seed 004 extensions', () => {
    expect([...INDEXED_EXTENSIONS].sort()).toEqual([
      'cjs',
      'go',
      'js',
      'jsx',
      'md',
      'mjs',
      'py',
      'rs',
      'ts',
      'tsx',
    ]);
    for (const ext of INDEXED_EXTENSIONS) expect(languageForPath(`f.${ext}`)).not.toBeNull();
  });
});

describe('innermostChunkAt (what find_related seeds from)', () => {
  it.each([
    [1, null], // preamble
    [4, 'add'],
    [27, 'UserService'],
    [37, 'UserService.findById'],
    [65, 'area'],
    [63, 'Geometry'],
    [79, null], // top-level call after the last chunk
  ] as const)('line %i -> %s', (line, want) => {
    const chunks = chunker.chunkFile('sample.ts', fixture('sample.ts'));
    expect(innermostChunkAt(chunks, line)?.symbolName ?? null).toBe(want);
  });
});
