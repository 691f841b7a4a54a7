/**
 * A brought ONNX model on WebGPU (issue 36): Chromium here has no GPU, so this spec's browser
 * offers SwiftShader's software WebGPU adapter (--enable-unsafe-webgpu
 * --use-webgpu-adapter=swiftshader). "Run on" chooses where the model runs: automatic never takes
 * a software adapter (the CPU answers), "WebGPU" takes it (onnxruntime-web's JSPI build, fetched
 * only then), the CPU again on request; the results name the device, rank the same files either
 * way, and the choice stays after a reload.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { CHROMIUM_ARGS } from './helpers/chromium-args';
import { USER_MODEL, tinyModelId, writeTinyModel } from './helpers/embed-model';
import { pickerReturnsOpfs, writeOpfsRepo } from './helpers/opfs';
import { SHOP_FILES, answeredBy, openShop } from './helpers/semantic-shop';
import type { QuarryPage } from './pages/quarry-page';
import { removeModelDir } from '../src/adapters/embed/onnx-fixture.testutil';

test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_ARGS, '--enable-unsafe-webgpu', '--use-webgpu-adapter=swiftshader'],
  },
});

const QUESTION = 'hello world';

/** The device that answered `QUESTION` and the files in the order it ranked them. */
async function answer(quarry: QuarryPage, page: Page): Promise<{ device: string | null; files: string[] }> {
  await quarry.searchBox.fill('');
  await answeredBy(quarry, page, QUESTION);
  const tag = page.getByTestId('semantic-model');
  return {
    device: await tag.getAttribute('data-device'),
    files: await quarry.semanticHits.evaluateAll((hits) =>
      hits.map((h) => h.getAttribute('data-path') ?? ''),
    ),
  };
}

test('a brought model runs on WebGPU when chosen, on the CPU otherwise, and says which', async ({
  quarry,
  page,
  requests,
}) => {
  test.setTimeout(180_000);
  const dir = writeTinyModel(USER_MODEL);
  try {
    const id = await tinyModelId(dir);
    await pickerReturnsOpfs(page, 'shop');
    await quarry.gotoEmpty();
    // the adapter is there, and it is a software one
    expect(
      await page.evaluate(async () => {
        const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
        const a = (await gpu?.requestAdapter()) as { info?: { isFallbackAdapter?: boolean } } | null;
        return a ? { software: a.info?.isFallbackAdapter === true } : null;
      }),
    ).toEqual({ software: true });
    await writeOpfsRepo(page, 'shop', SHOP_FILES);
    await openShop(quarry, page);
    await page.getByTestId('embed-model-input').setInputFiles(dir);
    const device = page.getByTestId('embed-device');
    await expect(device).toHaveValue('auto');
    await page.getByTestId('embed-model').screenshot({ path: 'e2e/output/embed-device.png' });

    // automatic: a software adapter is slower than wasm, so the CPU answers, and WebGPU's build is never fetched
    const cpu = await answer(quarry, page);
    expect(cpu.device).toBe('CPU');
    await expect(page.getByTestId('semantic-model')).toHaveAttribute('data-model', id);
    expect(requests.filter((u) => u.includes('.jspi'))).toEqual([]);

    // WebGPU chosen: the same model on the GPU, the same files in the same order
    await quarry.searchBox.fill('');
    await device.selectOption('webgpu');
    const gpu = await answer(quarry, page);
    expect(gpu.device).toBe('WebGPU');
    await expect(page.getByTestId('semantic-model')).toHaveAttribute('data-model', id);
    await expect(page.getByTestId('semantic-model')).toContainText('· WebGPU');
    await page.screenshot({ path: 'e2e/output/embed-webgpu-results.png' });
    expect(gpu.files).toEqual(cpu.files);
    expect(requests.some((u) => /ort-wasm-simd-threaded\.jspi[-.\w]*\.wasm$/.test(u))).toBe(true);

    // the choice stays after a reload
    await page.reload();
    await quarry.waitForRepo('shop');
    await quarry.waitForIndex();
    await quarry.mode('Semantic').check();
    await quarry.searchBox.fill('');
    await expect(device).toHaveValue('webgpu');
    expect((await answer(quarry, page)).device).toBe('WebGPU');

    // and the CPU on request
    await quarry.searchBox.fill('');
    await device.selectOption('wasm');
    expect((await answer(quarry, page)).device).toBe('CPU');
  } finally {
    removeModelDir(dir);
  }
});
