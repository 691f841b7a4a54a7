/**
 * Issue #14, faults in the browser: the tab reloaded while the index is being built (the worker
 * dies with it). The stored index of the last complete build survives, the reopened folder
 * finishes its index, and every answer afterwards matches the files.
 */
import { expect, test } from './fixtures';
import { pickerReturnsOpfs, writeOpfsFile, writeOpfsRepo, type FixtureFiles } from './helpers/opfs';

const FILES = 600;

/** Enough code that a build takes seconds in the worker (tree-sitter parses every function). */
function bigRepo(marker: string): FixtureFiles {
  const files: FixtureFiles = { 'package.json': '{ "name": "big-app" }\n' };
  for (let i = 0; i < FILES; i++) {
    let text = '';
    for (let f = 0; f < 30; f++)
      text += `export function handler${i}x${f}(request: string, total: number): string {\n  return request + total * ${f};\n}\n\n`;
    if (i === 7) text += `export function ${marker}() {\n  return 1;\n}\n`;
    files[`src/m${i % 20}/file${i}.ts`] = text;
  }
  return files;
}

test('a reload in the middle of an index build: the stored index survives and the build completes', async ({
  quarry,
  page,
}) => {
  test.setTimeout(300_000);
  await pickerReturnsOpfs(page, 'big-app');
  await quarry.gotoEmpty();
  await writeOpfsRepo(page, 'big-app', bigRepo('firstGenerationMarker'));
  await quarry.openFolderButton.click();
  await quarry.waitForRepo('big-app');
  expect(await quarry.waitForIndex(240_000)).toBe('full');

  // change a file, start a rebuild, reload while it runs
  await writeOpfsFile(
    page,
    'big-app',
    'src/m7/file7.ts',
    'export function secondGenerationMarker() {\n  return 2;\n}\n',
  );
  await quarry.indexStatus.getByRole('button', { name: 'Rebuild index' }).click();
  await expect(quarry.indexStatus).toHaveAttribute('data-state', 'building', { timeout: 30_000 });
  await page.reload();

  // The folder comes back (Recent) from its stored listing with the last complete index (the
  // first generation: a cache_hit of what the listing describes, never of the half-built one);
  // the check then reads the folder, finds the changed file, and the index catches up with it.
  await quarry.waitForRepo('big-app');
  await quarry.waitForIndex(240_000);
  await expect(page.getByTestId('reconcile-status')).toHaveCount(0, { timeout: 120_000 });
  await expect(quarry.indexStatus).toHaveAttribute('data-mode', /^(incremental|full)$/, { timeout: 240_000 });
  await expect(quarry.indexStatus).toHaveAttribute('data-state', 'ready', { timeout: 240_000 });
  await quarry.search('second generation marker', 'Ranked');
  await expect(quarry.rankedHits.first()).toContainText('secondGenerationMarker');
  await quarry.search('firstGenerationMarker', 'Text');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText('No matches');

  // a second reload: the completed index is stored
  await page.reload();
  await quarry.waitForRepo('big-app');
  expect(await quarry.waitForIndex(120_000)).toBe('cache_hit');
});
