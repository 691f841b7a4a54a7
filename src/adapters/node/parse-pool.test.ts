/**
 * The Node parsing pool with real worker threads: the index it builds is byte for byte the
 * one the calling thread builds, on real code in several languages (three's math in JS, the
 * chunker's own fixtures in every grammar language, a file with no parser).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inThreadChunker } from '../../core/chunk/any';
import type { FileChunker } from '../../core/chunk/pool';
import { CodeIndexService } from '../../core/rank/service';
import { Workspace } from '../../core/source/workspace';
import { NodeFsSource } from './fs';
import { nodeGrammarLoader } from './grammars';
import { FileIndexStore } from './index-store';
import { nodeParsePool } from './parse-pool';

const FIXTURES = path.resolve('src/core/chunk/fixtures');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A folder with three's math sources and every chunker fixture under its real extension. */
function repository(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-pool-'));
  dirs.push(dir);
  fs.cpSync(path.resolve('node_modules/three/src/math'), path.join(dir, 'math'), { recursive: true });
  for (const name of fs.readdirSync(FIXTURES))
    if (name.endsWith('.txt')) fs.copyFileSync(path.join(FIXTURES, name), path.join(dir, name.slice(0, -4)));
  fs.writeFileSync(
    path.join(dir, 'report.pl'),
    'sub total {\n  return 1;\n}\n\nsub average {\n  return 2;\n}\n',
  );
  return dir;
}

async function build(dir: string, chunker: FileChunker) {
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-pool-store-'));
  dirs.push(storeDir);
  const svc = new CodeIndexService(
    new Workspace([new NodeFsSource(dir)]),
    async () => chunker,
    new FileIndexStore(storeDir),
    'pool',
  );
  const stats = await svc.refresh();
  return { stats, stored: fs.readFileSync(path.join(storeDir, 'pool.json')) };
}

describe('the Node parsing pool', () => {
  it(
    'lets the process exit once its threads are idle, a grammar preload included (no dispose needed)',
    { timeout: 120_000 },
    () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-pool-exit-'));
      dirs.push(dir);
      const script = path.join(dir, 'run.mts'); // .mts: an ES module wherever it is
      fs.writeFileSync(
        script,
        [
          `import { nodeParsePool } from ${JSON.stringify(path.resolve('src/adapters/node/parse-pool.ts'))};`,
          'const pool = nodeParsePool(2);',
          "pool.prepare(['typescript', 'python']);",
          "const chunks = await pool.chunk('a.ts', 'export function ok() {}\\n');",
          "console.log(chunks.map((c) => c.symbolName).join(','));",
        ].join('\n'),
      );
      const r = spawnSync(process.execPath, ['--import', 'tsx', script], {
        cwd: path.resolve('.'),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(r.signal, 'still running after 30 s: a thread kept it alive').toBeNull();
      expect(r.stdout.trim(), r.stderr).toBe('ok');
      expect(r.status).toBe(0);
    },
  );

  it('builds the same index as one thread, on threads of its own', { timeout: 120_000 }, async () => {
    const dir = repository();
    const pool = nodeParsePool(2);
    const one = await inThreadChunker(nodeGrammarLoader);
    try {
      const pooled = await build(dir, pool);
      const single = await build(dir, one);
      expect(pooled.stats.coverage).toEqual(single.stats.coverage);
      expect(pooled.stats.coverage!.blocks).toBe(1); // report.pl
      expect(pooled.stats.chunksIndexed).toBeGreaterThan(500);
      expect(pooled.stored.equals(single.stored)).toBe(true);
    } finally {
      pool.dispose();
      one.dispose();
    }
  });

  it(
    'chunks any file on its threads: symbols where a grammar knows the language, blocks elsewhere',
    { timeout: 60_000 },
    async () => {
      const pool = nodeParsePool(2);
      try {
        const chunks = await pool.chunk('a.ts', 'export function ok() {}\n');
        expect(chunks.map((c) => c.symbolName)).toEqual(['ok']);
        const blocks = await pool.chunk('notes.txt', 'alpha beta\n\ngamma\n');
        expect(blocks.length).toBeGreaterThan(0);
        expect(blocks.every((c) => c.chunkType === 'block')).toBe(true);
      } finally {
        pool.dispose();
      }
    },
  );
});
