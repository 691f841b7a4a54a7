import { beforeAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { Chunker } from '../chunk';
import type { Chunk } from '../chunk/types';
import { definitionShape, endsBeforeBody, implementsDeclaration, stripComments } from './declarations';
import { byTier, nameLine, rankDefinitions } from './definitions';
import { goModuleOf, importsOfFile } from './file-imports';
import { identifierAt, isIdentifier, shortName, wholeWordRanges } from './identifier';
import { outlineOf, pathAt } from './outline';
import { groupReferences } from './references';
import { SymbolTable } from './symbol-table';
import { DECLARATIONS } from './fixtures/declarations';

const chunk = (
  path: string,
  symbolName: string,
  startLine: number,
  endLine: number,
  chunkType: Chunk['chunkType'] = 'function',
): Chunk => ({
  path,
  symbolName,
  startLine,
  endLine,
  chunkType,
});

describe('identifiers', () => {
  it('finds the word under a column, in any script, and refuses numbers and gaps', () => {
    const line = 'const total = formatMoney($cents) + 42;';
    expect(identifierAt(line, 16)).toEqual({ name: 'formatMoney', start: 14, end: 25 });
    expect(identifierAt(line, 25)).toEqual({ name: 'formatMoney', start: 14, end: 25 }); // just after the word
    expect(identifierAt(line, 27)?.name).toBe('$cents');
    expect(identifierAt(line, 37)).toBeNull(); // 42
    expect(identifierAt(line, 13)).toBeNull(); // '= '
    expect(identifierAt('größe = 1', 2)?.name).toBe('größe');
    expect(identifierAt('abc', -1)).toBeNull();
    expect(identifierAt('abc', 9)).toBeNull();
  });
  it('says what can be looked up', () => {
    expect(isIdentifier('parse_query')).toBe(true);
    expect(isIdentifier('9lives')).toBe(false);
    expect(isIdentifier('a.b')).toBe(false);
    expect(isIdentifier('')).toBe(false);
    expect(isIdentifier('x'.repeat(201))).toBe(false);
  });
  it('takes the name a symbol is called by', () => {
    expect(shortName('Ledger.total')).toBe('total');
    expect(shortName('A::f')).toBe('f');
    expect(shortName('(*T).M')).toBe('M');
    expect(shortName('formatMoney')).toBe('formatMoney');
  });
  it('finds whole-word ranges only', () => {
    expect(wholeWordRanges('add(adder, add)', 'add')).toEqual([
      [0, 3],
      [11, 14],
    ]);
    expect(wholeWordRanges('x_add add_x', 'add')).toEqual([]);
  });
});

describe('the symbol table', () => {
  it('keeps definitions by short name and leaves blocks, headings, keys and impl blocks out', () => {
    const t = SymbolTable.from([
      chunk('a.ts', 'Ledger.total', 3, 5, 'method'),
      chunk('b.ts', 'total', 1, 2),
      chunk('c.md', 'Total', 1, 9, 'section'),
      chunk('d.txt', 'lines 1-40', 1, 40, 'block'),
      chunk('e.json', 'total', 1, 1, 'key'),
      chunk('f.rs', 'impl Display for Total', 1, 9, 'impl'),
    ]);
    expect(t.lookup('total').map((c) => c.path)).toEqual(['a.ts', 'b.ts']);
    expect(t.lookup('Total')).toEqual([]);
    expect(t.size).toBe(2);
  });
});

describe('definitions', () => {
  const lines = new Map<string, string[]>([
    ['src/app.ts', ["import { formatMoney } from './money';", 'formatMoney(1);']],
    [
      'src/money.ts',
      ['/** formatMoney formats money */', 'export function formatMoney(c: number) {', '  return c;', '}'],
    ],
    ['legacy/format.ts', ['export function formatMoney(v) {', '}']],
    ['src/other.ts', ['export const formatMoney = 1;']],
  ]);
  const candidates = [
    chunk('legacy/format.ts', 'formatMoney', 1, 2),
    chunk('src/other.ts', 'formatMoney', 1, 1, 'const'),
    chunk('src/money.ts', 'formatMoney', 1, 4),
  ];
  const imports = importsOfFile('src/app.ts', lines.get('src/app.ts')!.join('\n'), new Set(lines.keys()));

  it('puts the name on its line, past the doc comment above it', () => {
    expect(nameLine(candidates[2], 'formatMoney', lines.get('src/money.ts')!)).toEqual({
      line: 2,
      column: [16, 27],
    });
    // a name only in a comment is still better than nothing; no lines at all gives the chunk's first line
    expect(nameLine({ startLine: 1, endLine: 1 }, 'formatMoney', ['// formatMoney'])).toEqual({
      line: 1,
      column: [3, 14],
    });
    expect(nameLine({ startLine: 7, endLine: 9 }, 'x', null)).toEqual({ line: 7, column: [0, 0] });
  });

  it('ranks the imported file first, then the same folder, then the rest', () => {
    expect(imports.files).toEqual(new Set(['src/money.ts']));
    const ranked = rankDefinitions(
      { name: 'formatMoney', from: 'src/app.ts', imports },
      byTier({ name: 'formatMoney', from: 'src/app.ts', imports }, candidates),
      (p) => lines.get(p) ?? null,
    );
    expect(ranked.map((d) => [d.path, d.rank, d.line])).toEqual([
      ['src/money.ts', 'imported', 2],
      ['src/other.ts', 'same folder', 1],
      ['legacy/format.ts', 'workspace', 1],
    ]);
    expect(ranked[0].text).toBe('export function formatMoney(c: number) {');
    expect(ranked.every((d) => d.symbolName === 'formatMoney')).toBe(true);
  });

  it('ranks the same file first and keeps one entry per name line', () => {
    const same = rankDefinitions(
      { name: 'formatMoney', from: 'legacy/format.ts', imports: { files: new Set(), dirs: new Set() } },
      [...candidates, chunk('legacy/format.ts', 'formatMoney', 1, 2, 'const')],
      (p) => lines.get(p) ?? null,
    );
    expect(same.map((d) => d.rank)).toEqual(['same file', 'workspace', 'workspace']);
  });

  it('resolves Go packages, Python relative imports and C headers with their sources', () => {
    const files = new Set([
      'go.mod',
      'money/money.go',
      'money/wallet.go',
      'main.go',
      'shop/pricing.py',
      'shop/checkout.py',
      'util.h',
      'util.c',
      'main.c',
    ]);
    const go = importsOfFile(
      'main.go',
      'package main\nimport "example.com/shop/money"\n',
      files,
      goModuleOf('go.mod', 'module example.com/shop\n'),
    );
    expect(go.dirs).toEqual(new Set(['money']));
    expect(importsOfFile('shop/checkout.py', 'from .pricing import apply_discount\n', files).files).toEqual(
      new Set(['shop/pricing.py']),
    );
    expect(importsOfFile('main.c', '#include "util.h"\n#include <stdio.h>\n', files).files).toEqual(
      new Set(['util.h', 'util.c']),
    );
    expect(importsOfFile('notes.txt', 'import x', files).files.size).toBe(0);
  });
});

describe('definitions before declarations (issue 31)', () => {
  const files = new Set(Object.keys(DECLARATIONS));
  const linesOf = (p: string) => DECLARATIONS[p]?.split('\n') ?? null;
  let table: SymbolTable;
  beforeAll(async () => {
    const chunker = await Chunker.create(nodeGrammarLoader, { languages: ['c', 'typescript', 'javascript'] });
    table = SymbolTable.from(
      Object.entries(DECLARATIONS).flatMap(([path, text]) => chunker.chunkFile(path, text)),
    );
  });
  /** Go to definition of `name` clicked in `from`, as the worker ranks it: path:line:rank. */
  const defs = (name: string, from: string) => {
    const query = { name, from, imports: importsOfFile(from, DECLARATIONS[from], files) };
    return rankDefinitions(query, byTier(query, table.lookup(name)), linesOf).map(
      (d) => `${d.path}:${d.line}:${d.rank}`,
    );
  };

  it('tells a prototype, an overload signature and a declaration from a body', () => {
    const shape = (path: string, line: number) => {
      const c = table.all.find((x) => x.path === path && x.startLine === line)!;
      return definitionShape(c, linesOf(path));
    };
    expect(shape('builtin.h', 4)).toEqual({ declaration: true, fileLocal: false }); // three lines, a comment above
    expect(shape('builtin/commit.c', 5)).toEqual({ declaration: false, fileLocal: false });
    expect(shape('ts/parse.ts', 1).declaration).toBe(true);
    expect(shape('ts/parse.ts', 2).declaration).toBe(true); // `{ text: string }` is a type, inside the parentheses
    expect(shape('ts/parse.ts', 3).declaration).toBe(false);
    expect(shape('ts/globals.ts', 1).declaration).toBe(true); // declare function
    expect(shape('ts/globals.ts', 2).declaration).toBe(false); // an arrow function ending in `;`
    expect(
      definitionShape({ path: 'ts/lib/format.d.ts', startLine: 1, endLine: 1, chunkType: 'function' }, null)
        .declaration,
    ).toBe(true);
    expect(shape('git.c', 3)).toEqual({ declaration: false, fileLocal: true }); // static, a comment above
    // the scanner: C++ bodiless members, K&R parameters, braces in strings and comments
    expect(endsBeforeBody('virtual void draw() = 0;')).toBe(true);
    expect(endsBeforeBody('Widget(const Widget&) = delete;')).toBe(true);
    expect(endsBeforeBody('int size() const { return 1; }')).toBe(false);
    expect(endsBeforeBody('int f(a) int a; { return a; }')).toBe(false);
    expect(endsBeforeBody('void f(const char *s = "{");')).toBe(true);
    expect(endsBeforeBody(stripComments('void f(); // { not a body'))).toBe(true);
    expect(endsBeforeBody(stripComments("fn name<'a>(&'a self) -> &'a str;", '"'))).toBe(true);
    expect(endsBeforeBody('def total(self):\n    return 0')).toBe(false);
  });

  it('C: the body in builtin/commit.c before the header prototype that sorts first, ranked as the imported header', () => {
    // before issue 31: ['builtin.h:5:imported', 'builtin/commit.c:5:workspace'] (git: builtin.h:166 opened)
    expect(defs('cmd_commit', 'git.c')).toEqual(['builtin/commit.c:5:imported', 'builtin.h:5:declaration']);
    expect(defs('cmd_add', 'builtin/commit.c')).toEqual([
      'builtin/add.c:3:imported',
      'builtin.h:3:declaration',
    ]);
    // a static forward prototype: its own file's body first; another file's static body is not behind it
    expect(defs('prepare', 'builtin/commit.c')).toEqual([
      'builtin/commit.c:10:same file',
      'git.c:4:workspace',
      'builtin/commit.c:3:declaration',
    ]);
    expect(implementsDeclaration({ path: 'git.c', fileLocal: true }, { path: 'builtin.h' })).toBe(false);
  });

  it('TypeScript: the implementation before its overloads and a declare function; a .d.ts after its module', () => {
    expect(defs('parse', 'ts/app.ts')).toEqual([
      'ts/parse.ts:4:imported',
      'ts/parse.ts:1:declaration',
      'ts/parse.ts:2:declaration',
      'ts/globals.ts:1:declaration',
    ]);
    expect(defs('parse', 'ts/parse.ts')[0]).toBe('ts/parse.ts:4:same file');
    expect(defs('format', 'ts/app.ts')).toEqual([
      'ts/lib/format.js:1:imported',
      'ts/lib/format.d.ts:1:declaration',
    ]);
    expect(
      implementsDeclaration({ path: 'ts/lib/format.js', fileLocal: false }, { path: 'ts/lib/format.d.ts' }),
    ).toBe(true);
    expect(
      implementsDeclaration({ path: 'ts/parse.ts', fileLocal: false }, { path: 'ts/lib/format.d.ts' }),
    ).toBe(false);
  });

  it('keeps the tiers when there are only declarations', () => {
    const query = { name: 'f', from: 'a.c', imports: { files: new Set(['a.h']), dirs: new Set<string>() } };
    const only = rankDefinitions(query, [chunk('z/b.h', 'f', 1, 1), chunk('a.h', 'f', 1, 1)], () => [
      'int f(void);',
    ]);
    expect(only.map((d) => `${d.path}:${d.rank}`)).toEqual(['a.h:imported', 'z/b.h:workspace']);
  });
});

describe('outline', () => {
  const chunks = [
    chunk('a.ts', 'Ledger', 3, 12, 'class'),
    chunk('a.ts', 'Ledger.add', 5, 7, 'method'),
    chunk('a.ts', 'Ledger.total', 8, 11, 'method'),
    chunk('a.ts', 'formatMoney', 1, 2),
    chunk('a.ts', 'lines 13-20', 13, 20, 'block'),
  ];
  const lines = [
    '/** doc */',
    'function formatMoney() {}',
    'class Ledger {',
    '  // adds',
    '  /** adds */',
    '  add() {',
    '  }',
    '  total() {',
    '',
    '',
    '  }',
    '}',
  ];
  it('nests symbols by range, in line order, without blocks, each on its name line', () => {
    const tree = outlineOf(chunks, lines);
    expect(tree.map((n) => n.name)).toEqual(['formatMoney', 'Ledger']);
    expect(tree[1].children.map((n) => [n.name, n.line])).toEqual([
      ['Ledger.add', 6],
      ['Ledger.total', 8],
    ]);
    expect(tree[0].line).toBe(2);
    expect(pathAt(tree, 9).map((n) => n.name)).toEqual(['Ledger', 'Ledger.total']);
    expect(pathAt(tree, 13)).toEqual([]);
  });
  it('does not nest a chunk that runs past the one before it', () => {
    const tree = outlineOf([chunk('a', 'A', 1, 5), chunk('a', 'B', 3, 9)], null);
    expect(tree.map((n) => n.name)).toEqual(['A', 'B']);
  });
});

describe('references', () => {
  it('groups by file with the definition file and line first, then the file asked from', () => {
    const m = (path: string, line: number, text: string) => ({
      path,
      line,
      text,
      ranges: [[0, 3]] as [number, number][],
      contextBefore: [],
      contextAfter: [],
    });
    const result = groupReferences(
      'add',
      'src/app.ts',
      [
        { path: 'src/a.ts', matches: [m('src/a.ts', 4, 'add()')] },
        { path: 'src/app.ts', matches: [m('src/app.ts', 9, 'add()')] },
        { path: 'src/lib.ts', matches: [m('src/lib.ts', 2, 'add()'), m('src/lib.ts', 7, 'function add')] },
      ],
      [
        {
          path: 'src/lib.ts',
          line: 7,
          column: [9, 12],
          startLine: 7,
          endLine: 9,
          symbolName: 'add',
          chunkType: 'function',
          rank: 'imported',
          text: '',
          signature: '',
          doc: '',
        },
      ],
      { total: 4, limitHit: false },
    );
    expect(result.files.map((f) => f.path)).toEqual(['src/lib.ts', 'src/app.ts', 'src/a.ts']);
    expect(result.files[0].lines.map((l) => [l.line, !!l.definition])).toEqual([
      [7, true],
      [2, false],
    ]);
    expect(result.total).toBe(4);
    expect(result.searchBased).toBe(true);
  });
});
