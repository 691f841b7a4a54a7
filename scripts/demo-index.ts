/**
 * The demo's code index, built at build time (the `quarry-demo` Vite plugin runs this file): the
 * app's own engine opens the demo files as the browser does and indexes them in this thread, and
 * the bytes it stores (the format and key the browser's IndexedDB store would hold) are written
 * out. A first visit then opens the demo already indexed instead of parsing 3 MB of source in the
 * background (about 9 CPU-seconds of Chromium here, on every first visit).
 *
 *   tsx scripts/demo-index.ts <demo files .json> <out .bin>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { nodeGrammarLoader } from '../src/adapters/node/grammars';
import { MemoryIndexStore, type IndexStore } from '../src/core/rank/persist';
import { EngineClient, inThreadTransport } from '../src/worker/client';
import { createEngineApi } from '../src/worker/engine';
import { indexStoreKey } from '../src/worker/session';

/**
 * An engine in this thread that has opened the demo made of `files` (path -> text) over
 * `indexStore` and refreshed its index: the client (the caller disposes of it) and the refresh's end.
 */
export async function openIndexedDemo(files: Record<string, string>, indexStore: IndexStore) {
  const client = new EngineClient(() =>
    inThreadTransport(
      createEngineApi({ loadDemo: async () => files, grammarLoader: nodeGrammarLoader, indexStore }),
    ),
  );
  try {
    await client.openRepo({ kind: 'demo' }).done;
    return { client, end: await client.indexRepo({}).done };
  } catch (err) {
    client.dispose();
    throw err;
  }
}

/** The stored index of the demo made of `files`, as the browser's engine would store it. */
export async function buildDemoIndex(files: Record<string, string>): Promise<Uint8Array> {
  const store = new MemoryIndexStore();
  const { client, end } = await openIndexedDemo(files, store);
  client.dispose();
  const bytes = store.data.get(indexStoreKey('demo'));
  if (!bytes) throw new Error(`the demo index was not stored (${JSON.stringify(end)})`);
  // a parse that failed or timed out here (a busy build machine) would ship as that file's
  // verdict, and a browser that finds the index current would never parse it again
  const failed =
    (end.stats as { coverage?: { textOnly: { failed: number } } }).coverage?.textOnly.failed ?? 0;
  if (failed)
    throw new Error(
      `the demo index has ${failed} file(s) whose parse failed: not shipping it (${JSON.stringify(end.stats)})`,
    );
  // what the browser relies on: an engine that opens the same files finds the index current
  const reopenStore = new MemoryIndexStore();
  await reopenStore.save(indexStoreKey('demo'), bytes);
  const again = await openIndexedDemo(files, reopenStore);
  again.client.dispose();
  const mode = String(again.end.stats.refreshMode);
  if (mode !== 'cache_hit')
    throw new Error(`the demo index is not current when the demo is opened again (${mode}): not shipping it`);
  return bytes;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [filesPath, outPath] = process.argv.slice(2);
  if (!filesPath || !outPath) {
    console.error('usage: tsx scripts/demo-index.ts <demo files .json> <out .bin>');
    process.exit(2);
  }
  const files = JSON.parse(readFileSync(filesPath, 'utf8')) as Record<string, string>;
  writeFileSync(outPath, await buildDemoIndex(files));
}
