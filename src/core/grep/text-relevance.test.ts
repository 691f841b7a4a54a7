/** The app's order of Text/Regex results: roles, names, definitions, counts, paths. */
import { describe, expect, it } from 'vitest';
import type { GrepFileResult, GrepMatch } from './types';
import {
  addMatches,
  compareRelevance,
  isDefinitionHit,
  orderTextResults,
  pathRank,
  queryWords,
} from './text-relevance';

/** A file whose lines are `lines`, each a hit on its first occurrence of `word`. */
function file(path: string, word: string, lines: string[]): GrepFileResult {
  const matches: GrepMatch[] = lines.map((text, i) => {
    const at = text.toLowerCase().indexOf(word.toLowerCase());
    return { path, line: i + 1, text, ranges: [[at, at + word.length]], contextBefore: [], contextAfter: [] };
  });
  return { path, matches };
}

describe('queryWords', () => {
  it('squashes case and punctuation, and joins several words', () => {
    expect(queryWords('fileRole', 'literal')).toEqual(['filerole']);
    expect(queryWords('file role', 'literal')).toEqual(['file', 'role', 'filerole']);
    expect(queryWords('NOTE: keep totals', 'literal')).toEqual(['note', 'keep', 'totals', 'notekeeptotals']);
    expect(queryWords('a', 'literal')).toEqual([]);
  });

  it('takes the literal runs of a regex, not its escapes, classes or counts', () => {
    expect(queryWords('\\w+Error\\(', 'regex')).toEqual(['error']);
    expect(queryWords('function\\s+\\w+Type\\(', 'regex')).toEqual(['function', 'type']);
    expect(queryWords('[A-Z]{2,3}_(foo|bar)', 'regex')).toEqual(['foo', 'bar']);
  });
});

describe('isDefinitionHit', () => {
  const hit = (text: string, word: string) => {
    const at = text.search(new RegExp(`\\b${word}\\b`));
    return isDefinitionHit(text, [[at, at + word.length]]);
  };
  it('finds the name a definition introduces, in many languages', () => {
    expect(hit('export function fileRole(path: string): FileRole {', 'fileRole')).toBe(true);
    expect(hit('export default class Parser {', 'Parser')).toBe(true);
    expect(hit('export interface GrepRequest {', 'GrepRequest')).toBe(true);
    expect(hit('const MAX = 3;', 'MAX')).toBe(true);
    expect(hit('    def parse(self, text):', 'parse')).toBe(true);
    expect(hit('pub fn parse(input: &str) -> Ast {', 'parse')).toBe(true);
    expect(hit('func (s *Server) Serve(l net.Listener) error {', 'Serve')).toBe(true);
    expect(hit('#define BUFFER_SIZE 4096', 'BUFFER_SIZE')).toBe(true);
  });
  it('is not a use of the name, nor a definition of another', () => {
    expect(hit('  return fileRole(path) === "test";', 'fileRole')).toBe(false);
    expect(hit('const role = fileRole(path);', 'fileRole')).toBe(false);
    expect(hit('import { fileRole } from "./file-role";', 'fileRole')).toBe(false);
    expect(isDefinitionHit('function a() {}', [])).toBe(false);
  });
});

describe('compareRelevance', () => {
  const order = (files: GrepFileResult[], query: string, mode: 'literal' | 'regex' = 'literal') =>
    orderTextResults(files, query, mode, 'relevance');

  it('puts source before config, tests, docs, changelogs, generated and vendored files', () => {
    const files = [
      file('CHANGELOG.md', 'parse', ['- parse faster', '- parse again', '- parse more']),
      file('node_modules/x/index.js', 'parse', ['parse()']),
      file('dist/app.min.js', 'parse', ['parse()']),
      file('docs/guide.md', 'parse', ['call parse']),
      file('src/app.test.ts', 'parse', ['parse()', 'parse()']),
      file('package.json', 'parse', ['"parse": 1']),
      file('src/app.ts', 'parse', ['parse()']),
    ];
    expect(order(files, 'parse')).toEqual([
      'src/app.ts',
      'package.json',
      'src/app.test.ts',
      'docs/guide.md',
      'CHANGELOG.md',
      'dist/app.min.js',
      'node_modules/x/index.js',
    ]);
  });

  it('within a role: the file named by the query, then a definition, then a folder, then more matches, then the path', () => {
    const files = [
      file('src/b.ts', 'cache', ['cache', 'cache', 'cache']),
      file('src/a.ts', 'cache', ['cache', 'cache', 'cache']),
      file('src/cache/store.ts', 'cache', ['cache']),
      file('src/lru.ts', 'cache', ['export class Cache {']),
      file('src/http-cache-control.ts', 'cache', ['cache']),
      file('src/cache.ts', 'cache', ['cache']),
      file('src/one.ts', 'cache', ['cache']),
    ];
    expect(order(files, 'cache')).toEqual([
      'src/cache.ts',
      'src/http-cache-control.ts',
      'src/lru.ts',
      'src/cache/store.ts',
      'src/a.ts',
      'src/b.ts',
      'src/one.ts',
    ]);
  });

  it('matches a name across case and separators, from a regex too', () => {
    const files = [
      file('src/x.ts', 'fileRole', ['fileRole']),
      file('src/file-role.ts', 'fileRole', ['fileRole']),
    ];
    expect(order(files, 'fileRole')).toEqual(['src/file-role.ts', 'src/x.ts']);
    expect(order(files, 'file role')).toEqual(['src/file-role.ts', 'src/x.ts']);
    expect(order(files, 'file\\w*role', 'regex')).toEqual(['src/file-role.ts', 'src/x.ts']);
  });

  it('counts a file sent in parts once, with all its matches', () => {
    const a1 = file('src/a.ts', 'x', ['x']);
    const a2 = file('src/a.ts', 'x', ['x', 'x']);
    const b = file('src/b.ts', 'x', ['x', 'x']);
    expect(order([a1, b, a2], 'x')).toEqual(['src/a.ts', 'src/b.ts']);
    const rank = pathRank('src/a.ts', []);
    addMatches(rank, a1.matches);
    addMatches(rank, a2.matches);
    expect(rank.matches).toBe(3);
  });

  it('orders by path alone in path order, and is a total order', () => {
    const files = [
      file('src/z.ts', 'q', ['q']),
      file('CHANGELOG.md', 'q', ['q']),
      file('src/a.test.ts', 'q', ['q']),
    ];
    expect(orderTextResults(files, 'q', 'literal', 'path')).toEqual([
      'CHANGELOG.md',
      'src/a.test.ts',
      'src/z.ts',
    ]);
    const a = pathRank('src/a.ts', []);
    expect(compareRelevance(a, a)).toBe(0);
    expect(compareRelevance(a, pathRank('src/b.ts', []))).toBeLessThan(0);
  });
});
