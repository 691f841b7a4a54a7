/**
 * Bringing an embedding model (issue 36): a folder with a tiny ONNX model the spec writes
 * (e2e/helpers/embed-model.ts, never downloaded) picked in the app through "Use my own model…"'s
 * folder input, copied into the browser's private storage, run by onnxruntime-web in the embedding
 * worker; the semantic results name the model (the id Node computes from the same files); after a
 * reload it is still the model; "Use the built-in model" goes back and re-embeds. A build given a
 * model (QUARRY_EMBED_MODEL=$(npx tsx e2e/helpers/embed-model.ts) npx vite build --outDir dist-embed)
 * answers with it from the start, its files and the ONNX runtime kept by the service worker on
 * first use, never precached.
 */
import * as path from 'node:path';
import { expect, test } from './fixtures';
import {
  DEPLOYED_MODEL,
  USER_MODEL,
  buildHasModel,
  tinyModelId,
  writeTinyModel,
} from './helpers/embed-model';
import { pickerReturnsOpfs, writeOpfsRepo } from './helpers/opfs';
import { SHOP_FILES as FILES, answeredBy, openShop } from './helpers/semantic-shop';
import { removeModelDir } from '../src/adapters/embed/onnx-fixture.testutil';

const DIST = path.resolve(process.env.E2E_DIST ?? 'dist');
const DEPLOYED = buildHasModel(DIST);

test('a model picked in the app answers, stays after a reload, and the built-in one comes back', async ({
  quarry,
  page,
}) => {
  test.setTimeout(180_000);
  const dir = writeTinyModel(USER_MODEL);
  try {
    const userId = await tinyModelId(dir);
    const builtInId = DEPLOYED ? await deployedId() : 'use-lite-512';
    await pickerReturnsOpfs(page, 'shop');
    await quarry.gotoEmpty();
    await writeOpfsRepo(page, 'shop', FILES);
    await openShop(quarry, page);
    const picker = page.getByTestId('embed-model');
    await expect(picker).toContainText(DEPLOYED ? `this site’s model “${DEPLOYED_MODEL.name}”` : 'USE lite');
    await expect(page.getByTestId('embed-model-builtin')).toHaveCount(0);

    // "Use my own model…": the folder input (the directory picker's fallback) given the folder
    await page.getByTestId('embed-model-input').setInputFiles(dir);
    await expect(picker).toContainText(`your model “${USER_MODEL.name}”`);
    expect(await answeredBy(quarry, page, 'hello world')).toBe(userId);
    await expect(page.getByTestId('semantic-model')).toHaveText(
      // (where it ran: this browser has no GPU, embed-webgpu.spec.ts gives one)
      `${USER_MODEL.name} (ONNX ${userId.split(':')[2].slice(0, 8)}) · CPU`,
    );
    // only the layout's files were copied into the browser's storage, with the manifest last
    const copied = await page.evaluate(async () => {
      const dir = await (await navigator.storage.getDirectory()).getDirectoryHandle('quarry-embed-model');
      const names: string[] = [];
      for await (const key of (dir as unknown as { keys(): AsyncIterable<string> }).keys()) names.push(key);
      return names.sort();
    });
    expect(copied).toEqual(['config.json', 'onnx', 'quarry-model.json', 'tokenizer.json']);

    // a reload (the folder reopens from the address): still the user's model, its vectors read back
    await page.reload();
    await quarry.waitForRepo('shop');
    await quarry.waitForIndex();
    await quarry.mode('Semantic').check();
    expect(await answeredBy(quarry, page, 'find the code search')).toBe(userId);

    // back to the built-in model: the repository embedded again with it
    await quarry.searchBox.fill('');
    await expect(picker).toContainText(`your model “${USER_MODEL.name}”`);
    await page.getByTestId('embed-model-builtin').click();
    await expect(picker).not.toContainText('your model');
    expect(await answeredBy(quarry, page, 'split comma separated text')).toBe(builtInId);
  } finally {
    removeModelDir(dir);
  }
});

async function deployedId(): Promise<string> {
  const dir = writeTinyModel(DEPLOYED_MODEL);
  try {
    return await tinyModelId(dir);
  } finally {
    removeModelDir(dir);
  }
}

test.describe('a build given a model (QUARRY_EMBED_MODEL)', () => {
  // the service worker keeps the model and the runtime (playwright.config.ts blocks it elsewhere)
  test.use({ serviceWorkers: 'allow' });
  test.skip(!DEPLOYED, 'this build has no model of its own (QUARRY_EMBED_MODEL)');

  test('answers with its model, fetched on first use and kept by the service worker, never precached', async ({
    quarry,
    page,
  }) => {
    test.setTimeout(180_000);
    const id = await deployedId();
    await pickerReturnsOpfs(page, 'shop');
    await quarry.gotoEmpty();
    await writeOpfsRepo(page, 'shop', FILES);
    await page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await page.reload();
    await openShop(quarry, page);
    await expect(page.getByTestId('semantic-enable')).toContainText(
      `this site’s model “${DEPLOYED_MODEL.name}”`,
    );
    expect(await answeredBy(quarry, page, 'hello world')).toBe(id);
    const caches = await page.evaluate(async () => {
      const names = await self.caches.keys();
      const files = async (name: string) =>
        (await (await self.caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
      const precache = names.find((n) => n.includes('precache'));
      return { kept: await files('quarry-embed-model'), precached: precache ? await files(precache) : [] };
    });
    expect(caches.kept.some((p) => /\/assets\/embed-model\/onnx\/model-[0-9a-f]{10}\.onnx$/.test(p))).toBe(
      true,
    );
    expect(caches.kept.some((p) => /\/assets\/embed-model\/tokenizer-[0-9a-f]{10}\.json$/.test(p))).toBe(
      true,
    );
    expect(caches.kept.some((p) => /\/ort-wasm-simd-threaded-[\w-]+\.wasm$/.test(p))).toBe(true);
    expect(caches.kept.some((p) => /\/embed-onnx-[\w-]+\.js$/.test(p))).toBe(true);
    expect(caches.precached.length).toBeGreaterThan(10);
    expect(caches.precached.filter((p) => /embed-model|embed-onnx|onnx-webgpu|ort-wasm/.test(p))).toEqual([]);
  });
});
