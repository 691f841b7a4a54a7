/**
 * The search pool in Chromium: a repository of a few MB is searched on the engine worker's
 * Web Worker lanes (a search worker is among the browser's targets), and the counts the app shows are
 * the exact counts of the files written (computed here, independently of the engine).
 */
import { expect, test } from './fixtures';
import { writeDiskRepo } from './helpers/repos';

const FILES = 240;
const LINES = 300;

function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) {
    const lines: string[] = [];
    for (let l = 0; l < LINES; l++) {
      const needle = (i * 31 + l) % 17 === 0 ? ` needle_${l}` : '';
      lines.push(`export const value_${i}_${l} = ${i * l}; // the line ${l} of file ${i}${needle}`);
    }
    out[`pkg${i % 8}/mod${String(i).padStart(3, '0')}.ts`] = lines.join('\n') + '\n';
  }
  return out;
}

/** Matching lines of a pattern, counted in the files as written. */
function count(all: Record<string, string>, re: RegExp) {
  let lines = 0;
  let inFiles = 0;
  for (const text of Object.values(all)) {
    const n = text.split('\n').filter((l) => re.test(l)).length;
    lines += n;
    if (n) inFiles++;
  }
  return { lines, inFiles };
}

test('a search of a few MB runs on the pool of search workers and counts exactly', async ({
  quarry,
  page,
}) => {
  test.setTimeout(120_000);
  const all = files();
  const dir = writeDiskRepo('pooled', all);
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');
  await quarry.folderInput.setInputFiles(dir);
  await quarry.waitForRepo('pooled', 60_000);

  const needles = count(all, /needle_/);
  await quarry.search('needle_');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText(
    `${needles.lines.toLocaleString('en-US')} matches in ${needles.inFiles} files`,
  );

  // a regex the index cannot narrow (no three literal characters in a row) is a scan, which the
  // pool shares (an indexed search may stay on one thread, and so does a scan whose first lines
  // deliver many lines a file: docs/search-pool.md); 20 lines in one file in ten here
  const digits = count(all, /\d_\d\d7\D{3}\d*3;/);
  await quarry.search('\\d_\\d\\d7\\D{3}\\d*3;', 'Regex');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText(
    `${digits.lines.toLocaleString('en-US')} matches in ${digits.inFiles} files`,
  );
  const cdp = await page.context().newCDPSession(page);
  const { targetInfos } = await cdp.send('Target.getTargets');
  // nested workers' script requests are not reported to the page: the browser's targets list them
  expect(
    targetInfos.filter((t) => t.type === 'worker' && /search\.worker/.test(t.url)).length,
    'search workers started',
  ).toBeGreaterThan(0);

  const regex = count(all, /needle_\d*7\b/);
  await quarry.search('needle_\\d*7\\b', 'Regex');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText(
    `${regex.lines.toLocaleString('en-US')} matches in ${regex.inFiles} files`,
  );

  // more lines than the app shows: the first 5,000 delivered, the rest counted exactly
  const common = count(all, /value_/);
  await quarry.search('value_', 'Text');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText(
    `Showing 5,000 of ${common.lines.toLocaleString('en-US')} matches in ${common.inFiles} files`,
  );
  await expect(quarry.hits.first()).toHaveAttribute('data-path', 'pkg0/mod000.ts');
});
