/** The Node search pool with real worker_threads: the same answer as one thread, reading roots on disk or shipped bytes. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchAll } from '../../core/grep/search';
import { MemorySource } from '../../core/source/memory';
import { Workspace } from '../../core/source/workspace';
import { NodeFsSource } from './fs';
import { nodeSearchPool } from './search-pool';

let dir: string;
const files: Record<string, string> = {};
for (let i = 0; i < 60; i++)
  files[`d${i % 4}/f${String(i).padStart(2, '0')}.ts`] =
    `// file ${i}\n${'const x = 1;\n'.repeat(i)}return ${i}; // the end\n`;
files['big.txt'] = 'return\n'.repeat(2000);
files['bin.dat'] = 'return\u0000';

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-search-pool-'));
  for (const [p, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), text);
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the Node search pool', () => {
  it('answers as one thread does, from roots the threads open and from shipped bytes', async () => {
    const pool = Object.assign(nodeSearchPool(2), {
      chunking: { firstBytes: 64, maxBytes: 512, maxFiles: 4, localBytes: 0 },
      coordinatorSearches: 'first' as const,
    });
    try {
      for (const ws of [new Workspace([new NodeFsSource(dir)]), new Workspace([new MemorySource(files)])]) {
        for (const req of [
          { pattern: 'return', mode: 'literal' as const, contextBefore: 1, maxResults: 3000 },
          { pattern: 'return \\d+', mode: 'regex' as const, maxResults: 5, countLimit: 30 },
          { pattern: 'nowhere', mode: 'literal' as const },
        ]) {
          const one = await searchAll(ws, req);
          const many = await searchAll(ws, req, { pool });
          expect({ ...many.summary, elapsedMs: 0 }).toEqual({ ...one.summary, elapsedMs: 0 });
          expect(many.files).toEqual(one.files);
        }
      }
      expect(pool.rootRef(new NodeFsSource(dir))).toBe(path.resolve(dir));
      expect(pool.rootRef(new MemorySource({}))).toBeNull();
    } finally {
      pool.dispose();
    }
  }, 60_000);
});
