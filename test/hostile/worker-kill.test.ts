/**
 * Issue #14, faults: the engine's worker killed in the middle of an index build. The index
 * stored by the last complete build is intact (saves are whole-file renames), a new worker
 * over the same store refreshes only what changed, and its answers follow the files.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineClient, type EngineTransport } from '../../src/worker/client';
import { startNodeWorkerTransport, type NodeWorkerConstructor } from '../../src/worker/node-host';
import { WORKER_STORE_MODULE } from '../worker-store.testutil';

const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-kill-store-'));
process.env.QUARRY_TEST_STORE_DIR = storeDir;
afterAll(() => fs.rmSync(storeDir, { recursive: true, force: true }));

function files(generation: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < 400; i++) {
    let text = '';
    for (let f = 0; f < 20; f++)
      text += `export function handler${i}x${f}(request: string): string {\n  return request + ${f};\n}\n\n`;
    out[`src/m${i % 10}/file${i}.ts`] = text;
  }
  out['src/m7/file7.ts'] += `export function ${generation}Marker() {\n  return 1;\n}\n`;
  return out;
}

function engine(): { client: EngineClient; kill: () => void } {
  let transport: EngineTransport | null = null;
  const client = new EngineClient(async () => {
    transport = await startNodeWorkerTransport(Worker as unknown as NodeWorkerConstructor, {
      nodeGrammars: true,
      wrapModule: WORKER_STORE_MODULE,
    });
    return transport;
  });
  return { client, kill: () => transport?.terminate() };
}

describe('the worker killed mid-build', () => {
  it('leaves the stored index intact; the next worker refreshes incrementally and answers right', async () => {
    const first = engine();
    await first.client.openRepo({ kind: 'memory', name: 'killed', files: files('first') }).done;
    expect((await first.client.indexRepo({}).done).stats.refreshMode).toBe('full');
    first.client.dispose();
    const stored = fs.readdirSync(storeDir).map((n) => [n, fs.readFileSync(path.join(storeDir, n))] as const);
    expect(stored.length).toBeGreaterThan(0);

    // a forced rebuild, killed while it indexes
    const second = engine();
    await second.client.openRepo({ kind: 'memory', name: 'killed', files: files('second') }).done;
    let indexing = 0;
    const build = second.client.indexRepo({ force: true }).onProgress((p) => {
      if (p.phase === 'indexing') indexing = p.files;
    });
    let ended = false;
    const outcome = build.done.then(
      (v) => ((ended = true), v),
      (e: unknown) => ((ended = true), e),
    );
    const deadline = Date.now() + 60_000;
    while (indexing < 50 && !ended && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(ended, 'the build ended before it could be killed').toBe(false);
    expect(indexing).toBeGreaterThanOrEqual(50);
    second.kill();
    await Promise.race([outcome, new Promise((r) => setTimeout(r, 2000))]);
    second.client.dispose();
    // nothing half-written: the stored files are the first build's, byte for byte, and no temp file
    expect(fs.readdirSync(storeDir).sort()).toEqual(stored.map(([n]) => n).sort());
    for (const [n, bytes] of stored)
      expect(fs.readFileSync(path.join(storeDir, n)).equals(bytes), n).toBe(true);

    const third = engine();
    try {
      await third.client.openRepo({ kind: 'memory', name: 'killed', files: files('second') }).done;
      const stats = (await third.client.indexRepo({}).done).stats;
      expect(stats.refreshMode).toBe('incremental');
      expect(stats.filesChanged).toBe(1);
      const hits: string[] = [];
      await third.client
        .search({ pattern: 'secondMarker', mode: 'literal', caseMode: 'sensitive', maxResults: 10 })
        .onBatch((batch) => batch.forEach((f) => hits.push(f.path))).done;
      expect(hits).toEqual(['src/m7/file7.ts']);
    } finally {
      third.client.dispose();
    }
  }, 180_000);
});
