import { describe, expect, it } from 'vitest';
import type { Chunk } from '../chunk/types';
import { ChunkIndex } from './bm25';
import { splitLinesForIndex } from './lines';
import { queryWords, rankChunks } from './ranked';

/** one chunk per `fn NAME` line, to the next */
function build(files: Record<string, string>): ChunkIndex {
  const index = new ChunkIndex();
  for (const [path, text] of Object.entries(files)) {
    const lines = splitLinesForIndex(text);
    const chunks: Chunk[] = [];
    lines.forEach((l, i) => {
      const m = /^fn (\w+)/.exec(l);
      if (m) {
        if (chunks.length) chunks[chunks.length - 1].endLine = i;
        chunks.push({
          path,
          startLine: i + 1,
          endLine: lines.length,
          symbolName: m[1],
          chunkType: 'function',
        });
      }
    });
    index.setFile(path, { size: 0, mtimeMs: 0 }, chunks, lines);
  }
  return index;
}

const FILES = {
  'users.ts': 'fn getUserById\n  return db.users.find(id)\nfn listUsers\n  return db.users.all()\n',
  'orders.ts': 'fn getOrderById\n  return db.orders.find(id)\n',
  'notes.md': 'fn notes\n  the user asked for an id lookup by user id and user name\n',
  'snake.py': 'fn fetch_user_record\n  return user_table[user_id]\n',
};

describe('people ranking', () => {
  it('splits query identifiers into words', () => {
    expect(queryWords('user id').words).toEqual(['user', 'id']);
    expect(queryWords('getUserById').words).toEqual(['get', 'user', 'by', 'id']);
    expect(queryWords('getUserById').joined).toBe('getuserbyid');
  });
  it('finds getUserById for "user by id" (the contract tokenizer alone cannot)', () => {
    const index = build(FILES);
    expect(index.search('user by id', 5)[0].chunk.symbolName).toBe('notes'); // the contract ranks the prose first
    const hits = rankChunks(index, 'user by id', 5);
    expect(hits[0].chunk.symbolName).toBe('getUserById');
    const user = hits[0].components.find((c) => c.word === 'user')!;
    expect(user.via).toContain('getuserbyid');
    expect(user.symbolBoost).toBeGreaterThan(0);
  });
  it('ranks an exact identifier and symbol-name matches above body mentions', () => {
    const index = build(FILES);
    const exact = rankChunks(index, 'getUserById', 5);
    expect(exact[0].chunk.symbolName).toBe('getUserById');
    expect(exact[0].exactSymbol).toBe(true);
    const user = rankChunks(index, 'user', 5).map((h) => h.chunk.symbolName);
    // names containing "user" first, the prose that repeats "user" three times after them
    expect(user.indexOf('notes')).toBeGreaterThan(user.indexOf('getUserById'));
    expect(user.indexOf('notes')).toBeGreaterThan(user.indexOf('fetch_user_record'));
  });
  it('keeps snake_case parts and survives a save/load round trip', () => {
    const index = build(FILES);
    const loaded = ChunkIndex.fromState(index.toState());
    expect(rankChunks(loaded, 'user record', 3)[0].chunk.symbolName).toBe('fetch_user_record');
    expect(rankChunks(loaded, 'user record', 3)).toEqual(rankChunks(index, 'user record', 3));
  });
  it('returns nothing for a query without words', () => {
    expect(rankChunks(build(FILES), '... a', 5)).toEqual([]);
  });
});
