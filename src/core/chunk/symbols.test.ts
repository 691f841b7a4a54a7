/**
 * The symbols people look for (issue 15, point 3), each shown on a hand-written fixture or an
 * inline case: non-exported values (objects, arrays, `new`, defining calls), object-literal
 * methods, class fields holding functions, CommonJS exports, enums, interfaces, type aliases,
 * namespaces, Python decorators kept with their function, Go methods with receivers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fixture, type Row } from './rows.testutil';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { Chunker, innermostChunkAt } from './index';
import type { Chunk } from './types';

const rowsOf = (chunks: Chunk[]): Row[] =>
  chunks.map((c) => [c.startLine, c.endLine, c.chunkType, c.symbolName]);

let chunker: Chunker;
beforeAll(async () => {
  chunker = await Chunker.create(nodeGrammarLoader, {
    languages: ['typescript', 'tsx', 'javascript', 'python', 'go'],
  });
});

/** The chunks of one file through whichever entry point the Chunker has (sync chunkFile or async chunk). */
async function chunksOf(path: string, text: string): Promise<Chunk[]> {
  const c = chunker as unknown as {
    chunk?: (p: string, t: string) => Promise<Chunk[]>;
    chunkFile?: (p: string, t: string) => Chunk[];
  };
  const chunks = c.chunk ? await c.chunk(path, text) : c.chunkFile!(path, text);
  for (const chunk of chunks) expect(chunk.path).toBe(path);
  return chunks;
}

const FIXTURES: { file: string; want: Row[] }[] = [
  {
    // Lines 2-11 are trivial values (require, import(), names, member expressions,
    // primitives, one-line objects/new/calls): no chunks. So are the export tables at 81-90
    // and everything inside function setup().
    file: 'values.ts',
    want: [
      [13, 42, 'const', 'CacheViewImpl'], // the KeepAliveImpl shape: a non-exported options object, doc comment attached
      [19, 23, 'method', 'CacheViewImpl.setup'], // its comment attached
      [24, 26, 'method', 'CacheViewImpl.label'], // getter
      [27, 29, 'method', 'CacheViewImpl.refresh'], // key: function () {}
      [30, 32, 'method', 'CacheViewImpl.reset'], // key: async () => {}
      [34, 36, 'method', 'CacheViewImpl.methods.evict'], // one nested object deep
      [37, 39, 'method', 'CacheViewImpl.methods.touch'], // `size() { return 0; }` on one line: read in its container
      [44, 48, 'const', 'Counter'], // defineComponent({...})
      [45, 47, 'method', 'Counter.data'],
      [50, 53, 'const', 'routes'], // var, array literal
      [55, 57, 'const', 'registry'], // let, new
      [59, 61, 'const', 'Colors'], // Object.freeze({...})
      [63, 65, 'const', 'Title'], // tagged template
      [67, 69, 'const', 'userSchema'], // an object argument further down a method chain
      [71, 74, 'const', 'counterModule'], // IIFE
      [76, 79, 'const', 'validators'], // maps keys to other names: not an export table
      [92, 96, 'const', 'api'], // exported consts were chunks already; now with their methods
      [93, 95, 'method', 'api.fetch'],
      [98, 109, 'class', 'Poller'], // the static block and the non-function field are not methods
      [99, 101, 'method', 'Poller.tick'], // field = function () {}
      [102, 104, 'method', 'Poller.stop'], // field = async () => {}
      [111, 121, 'const', 'default'], // export default {...}
      [113, 115, 'method', 'default.created'],
      [117, 119, 'method', 'default.computed.total'],
      [123, 130, 'function', 'setup'], // `const inner = {...}` in its body is not a chunk
    ],
  },
  {
    // exports.sep/join (names), a string, a require() and `something.exports` are not chunks.
    file: 'commonjs.js',
    want: [
      [4, 7, 'function', 'resolveRequest'], // module.exports = function resolveRequest
      [9, 11, 'function', 'normalize'], // exports.normalize = function () {}
      [13, 15, 'function', 'isAbsolute'], // module.exports.isAbsolute = () => {}
      [17, 22, 'const', 'defaults'], // exports.defaults = {...}
      [19, 21, 'method', 'defaults.resolve'],
      [24, 28, 'class', 'Resolver'], // exports.Resolver = class {}
      [25, 27, 'method', 'Resolver.run'],
    ],
  },
  {
    file: 'declarations.ts',
    want: [
      [1, 4, 'enum', 'Direction'],
      [6, 9, 'enum', 'Flags'], // export const enum
      [11, 13, 'enum', 'Legacy'], // declare enum
      [15, 17, 'enum', 'Ambient'], // declare const enum
      [19, 22, 'interface', 'Shape'], // doc comment attached
      [24, 26, 'interface', 'Circle'], // generic, extends
      [28, 28, 'type', 'Point'],
      [30, 32, 'type', 'Result'], // a union over several lines
      [34, 38, 'module', 'Geometry.Plane.Lines'], // dotted namespace name as written
      [35, 37, 'function', 'slope'],
      [40, 51, 'module', 'Outer'],
      [41, 45, 'module', 'Inner'], // nested: its own name, as members of namespaces are
      [42, 44, 'enum', 'Mode'],
      [46, 50, 'const', 'table'], // a non-exported object in a namespace body
      [47, 49, 'method', 'table.lookup'],
      [53, 58, 'module', 'Globals'], // declare namespace
      [54, 56, 'interface', 'Env'],
      [57, 57, 'type', 'Port'],
      [60, 62, 'module', 'Legacy2'], // module X {}
      [61, 61, 'type', 'Id'],
    ],
  },
  {
    file: 'decorators.py',
    want: [
      [4, 6, 'function', 'fib'], // starts at @functools.cache
      [9, 16, 'function', 'list_items'], // comment, a decorator over four lines and a second one
      [19, 34, 'class', 'Item'], // @dataclass(frozen=True)
      [23, 25, 'method', 'Item.label'], // @property
      [27, 29, 'method', 'Item.label'], // @label.setter
      [31, 34, 'method', 'Item.parse'], // a blank line between decorator and def changes nothing
      [37, 41, 'function', 'plain'], // the decorated inner function is not a chunk
    ],
  },
  {
    file: 'receivers.go',
    want: [
      [3, 6, 'struct', 'Cache'],
      [8, 11, 'method', 'Cache.Get'], // value receiver, comment attached
      [13, 16, 'method', 'Cache.Put'], // pointer receiver: * stripped
      [18, 20, 'struct', 'Map'],
      [22, 25, 'method', 'Map.Load'], // *Map[K, V]: pointer and type parameters stripped
      [27, 27, 'method', 'Map.Len'], // Map[K, V]
      [29, 29, 'struct', 'Set'],
      [31, 31, 'method', 'Set.Empty'], // unnamed receiver
      [33, 33, 'method', 'Set.Reset'], // unnamed pointer receiver
      [35, 37, 'function', 'New'],
    ],
  },
];

describe('symbols people look for: fixtures', () => {
  it.each(FIXTURES)('$file', async ({ file, want }) => {
    expect(rowsOf(await chunksOf(`src/${file}`, fixture(file)))).toEqual(want);
  });

  it.each(FIXTURES)('$file with CRLF line ends gives the same chunks', async ({ file, want }) => {
    expect(rowsOf(await chunksOf(file, fixture(file).replace(/\n/g, '\r\n')))).toEqual(want);
  });

  it('an object literal contains its methods: find_related seeds from the innermost', async () => {
    const chunks = await chunksOf('values.ts', fixture('values.ts'));
    expect(innermostChunkAt(chunks, 21)?.symbolName).toBe('CacheViewImpl.setup');
    expect(innermostChunkAt(chunks, 16)?.symbolName).toBe('CacheViewImpl'); // props
    expect(innermostChunkAt(chunks, 41)?.symbolName).toBe('CacheViewImpl'); // the one-line size()
    expect(innermostChunkAt(chunks, 35)?.symbolName).toBe('CacheViewImpl.methods.evict');
    expect(innermostChunkAt(chunks, 6)).toBeNull(); // const LIMIT = 10
  });
});

const INLINE: { name: string; path: string; text: string; want: Row[] }[] = [
  {
    name: 'module.exports = {...}: the object is `exports`, its methods exports.key',
    path: 'codec.cjs',
    text: "module.exports = {\n  parse(text) {\n    return text.split('\\n');\n  },\n  print: function (tree) {\n    return tree.join('\\n');\n  },\n  name: 'codec',\n};\n",
    want: [
      [1, 9, 'const', 'exports'],
      [2, 4, 'method', 'exports.parse'],
      [5, 7, 'method', 'exports.print'],
    ],
  },
  {
    name: 'an anonymous module.exports function is named exports',
    path: 'a.js',
    text: 'module.exports = async function () {\n  return 1;\n};\n',
    want: [[1, 3, 'function', 'exports']],
  },
  {
    name: 'module.exports = class: the class by its name, with its methods',
    path: 'a.js',
    text: 'module.exports = class Queue {\n  push(x) {\n    this.items.push(x);\n  }\n};\n',
    want: [
      [1, 5, 'class', 'Queue'],
      [2, 4, 'method', 'Queue.push'],
    ],
  },
  {
    name: 'export default defineComponent({...}) is default, with default.setup',
    path: 'Widget.ts',
    text: "export default defineComponent({\n  name: 'Widget',\n  setup() {\n    return {};\n  },\n});\n",
    want: [
      [1, 6, 'const', 'default'],
      [3, 5, 'method', 'default.setup'],
    ],
  },
  {
    name: 'a one-line export default object is no chunk',
    path: 'a.ts',
    text: 'export default { a: 1 };\n',
    want: [],
  },
  {
    name: 'trivial values are no chunks: require, import(), names, primitives, one-liners, plain calls',
    path: 'trivial.js',
    text: [
      "const a = require('a');",
      "const b = await import('b');",
      'const c = a.b.c;',
      'let d = 42;',
      "var e = 'text';",
      'const f = { x: 1 };',
      'const g = new Map();',
      'const h = [1, 2, 3];',
      "const i = debug('x');",
      'const j = Object.freeze({ a: 1 });',
      "const k = require(\n  'k'\n);",
      'const m = compute(\n  a,\n  b,\n);',
      'const n = `multi\nline`;',
      'const o = a ||\n  b;',
    ].join('\n'),
    want: [],
  },
  {
    name: 'a bundler namespace object and a shorthand export list are export tables: no chunks',
    path: 'bundle.js',
    text: 'const ns = Object.defineProperty({\n  __proto__: null,\n  get parse () { return parse; },\n  get print () {\n    return print;\n  },\n}, Symbol.toStringTag, { value: "Module" });\nconst api = {\n  parse,\n  print: print,\n  ...rest,\n};\n',
    want: [],
  },
  {
    name: 'an exported object that is an export table is still a const (every exported const is), without methods',
    path: 'e.ts',
    text: 'export const ns = {\n  get a() {\n    return a;\n  },\n};\n',
    want: [[1, 5, 'const', 'ns']],
  },
  {
    name: 'a method returning its parameter is not a forwarder',
    path: 'id.ts',
    text: 'const identity = {\n  of(x: number) {\n    return x;\n  },\n};\n',
    want: [
      [1, 5, 'const', 'identity'],
      [2, 4, 'method', 'identity.of'],
    ],
  },
  {
    name: 'several declarators: only the qualifying one, spanning itself',
    path: 'd.ts',
    text: '// doc\nconst n = 1,\n  table = {\n    run() {\n      return n;\n    },\n  };\n',
    want: [
      [3, 7, 'const', 'table'],
      [4, 6, 'method', 'table.run'],
    ],
  },
  {
    name: 'export let / top-level await / satisfies / nested objects stop one level down',
    path: 's.ts',
    text: [
      'export let store = createStore({',
      '  state: 0,',
      '});',
      'const config = await loadConfig({',
      "  root: '.',",
      '});',
      'const handlers = {',
      '  a: {',
      '    b: {',
      '      deep() {',
      '        return 1;',
      '      },',
      '    },',
      '  },',
      '} satisfies Handlers;',
    ].join('\n'),
    want: [
      [1, 3, 'const', 'store'],
      [4, 6, 'const', 'config'],
      [7, 15, 'const', 'handlers'],
    ],
  },
  {
    name: 'javascript class fields holding functions; private and static ones too',
    path: 'f.js',
    text: 'class Timer {\n  start = function () {\n    return 1;\n  };\n  static #next = () => {\n    return 2;\n  };\n  count = 0;\n}\n',
    want: [
      [1, 9, 'class', 'Timer'],
      [2, 4, 'method', 'Timer.start'],
      [5, 7, 'method', 'Timer.#next'],
    ],
  },
  {
    name: 'tsx: a styled component and a non-exported options object',
    path: 'Card.tsx',
    text: 'const Frame = styled.div`\n  padding: 4px;\n`;\nconst cardOptions = {\n  render() {\n    return <Frame />;\n  },\n};\n',
    want: [
      [1, 3, 'const', 'Frame'],
      [4, 8, 'const', 'cardOptions'],
      [5, 7, 'method', 'cardOptions.render'],
    ],
  },
  {
    name: 'object keys as written: quoted keys unquoted, computed keys kept',
    path: 'k.js',
    text: "const table = {\n  'on-click'() {\n    return 1;\n  },\n  [Symbol.iterator]: function* () {\n    yield 1;\n  },\n};\n",
    want: [
      [1, 8, 'const', 'table'],
      [2, 4, 'method', 'table.on-click'],
      [5, 7, 'method', 'table.[Symbol.iterator]'],
    ],
  },
];

describe('symbols people look for: inline cases', () => {
  it.each(INLINE)('$name', async ({ path, text, want }) => {
    expect(rowsOf(await chunksOf(path, text))).toEqual(want);
  });
});
