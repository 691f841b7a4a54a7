/**
 * The viewer colours code from its grammar's highlight queries (parsed in the worker, the lines
 * on screen only): a substitution inside a template string is code, not string, as the
 * hand-written colourer had it; a file with no grammar keeps the colouring by language family.
 */
import { expect, test } from './fixtures';

test('code is coloured from its grammar; a file without one by its language family', async ({
  quarry,
  page,
}) => {
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  // a parenthesis groups in the query language: the phrase is quoted to search for it as written
  await quarry.search('"is not under any open root ("');
  await quarry.waitForSearchDone();
  const first = quarry.hits.and(page.locator('[data-path="src/core/workspace/workspace.ts"]')).first();
  const path = (await first.getAttribute('data-path'))!;
  const line = Number(await first.getAttribute('data-line'));
  await first.click();
  await expect(quarry.viewer(path)).toBeVisible();
  const lines = page.getByTestId('viewer-lines');
  await expect(lines).toHaveAttribute('data-syntax', 'exact');
  const code = quarry.codeLine(line);
  // `${names.join(', ')}` inside the template: `join` is a method call, and no string run holds it
  await expect(code.locator('.tk-fn', { hasText: /^join$/ })).toHaveCount(1);
  const strings = await code.locator('.tk-str').allTextContents();
  expect(strings.some((s) => s.includes('is not under any open root'))).toBe(true);
  expect(strings.some((s) => s.includes('names.join'))).toBe(false);

  // package.json: JSON has no grammar here, so the family colourer keeps its colours
  await quarry.goto('?repo=demo&file=package.json');
  await quarry.waitForRepo('quarry (demo)');
  await expect(quarry.viewer('package.json')).toBeVisible();
  await expect(page.getByTestId('viewer-lines')).toHaveAttribute('data-syntax', 'family');
  await expect(page.getByTestId('viewer-lines').locator('.tk-str').first()).toBeVisible();
});
