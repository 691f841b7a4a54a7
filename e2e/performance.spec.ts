import { expect, test } from './fixtures';
import {
  describeLongTasks,
  mark,
  readLongTasks,
  recordLongTasks,
  repoOpen,
  searchDone,
  startTrace,
  stopTrace,
  until,
} from './helpers/long-tasks';
import { tenThousandFiles, writeDiskRepo } from './helpers/repos';

// Playwright's trace recorder snapshots the DOM in the page's main thread around every
// action and assertion (tasks of 50-150 ms on a busy machine): harness work, not the app's,
// so this measurement runs without it.
// The service worker's first-visit precache (8 MB, off the main thread) is not part of loading a folder.
test.use({ trace: 'off', serviceWorkers: 'block' });
// A timing assertion on a shared, oversubscribed 2-core machine: decided by attribution
// (helpers/long-tasks.ts), so a long frame of other work (the browser's, Playwright's) is printed
// and not counted; a long frame running the app's own scripts fails, named, when the main thread's
// CPU time in it is over the bound too (a frame stretched while the renderer waited for a core is
// printed as such). No retries.
test(
  'the main thread never blocks for more than 50 ms while 10,000 files load',
  { tag: '@timing' },
  async ({ quarry, page }) => {
    test.setTimeout(180_000);
    const dir = writeDiskRepo('ten-thousand', tenThousandFiles());
    await quarry.goto();
    await quarry.waitForRepo('quarry (demo)');

    // Record every long animation frame (> 50 ms) on the main thread from here on, with the
    // scripts behind it: the app's count, others are printed.
    await recordLongTasks(page);
    await startTrace(page);
    const t0 = Date.now();
    await quarry.folderInput.setInputFiles(dir);
    // cheap waits while measuring (helpers/long-tasks.ts: an expect polling for a missing element
    // snapshots the page each time); what the user sees is asserted as before
    await page.getByRole('progressbar').first().waitFor();
    await until(page, 'the folder to open', repoOpen, 'ten-thousand', 100_000);
    await expect(quarry.repoName).toContainText('10,000 files');
    const loadMs = Date.now() - t0;
    await mark(page, 'test:loaded');
    await quarry.treeItem('pkg0').click();
    await quarry.treeItem('mod0.ts').waitFor();
    await mark(page, 'test:search');
    await quarry.search('value42_7');
    await until(page, 'the search', searchDone);
    await expect(quarry.summary).toContainText('22 matches in 11 files'); // mod7 and mod70-79
    // Chromium builds the FileList of a 10,000-file folder inside the task that delivers the
    // `change` event (the harness's stand-in for the native folder dialog, not Quarry's load):
    // that frame counts only from the app's handler on (helpers/long-tasks.ts readLongTasks).
    await stopTrace(page, 'ten-thousand');
    // No app frame blocking over 50 ms, loading or searching while the index builds. (From the
    // relevance-ordered list (2ba407c) the search's bound was 150 ms for a while, when its first
    // results' frame took 50-120 ms here; at 169c2db the app's frames stayed under 50 ms in 5 of 5
    // runs, and the bound is 50 ms again.)
    const loading = await readLongTasks(page, {
      from: 'quarry:files-received',
      to: 'test:search',
      bound: 50,
    });
    const searching = await readLongTasks(page, { from: 'test:search', bound: 50 });
    const summary =
      `10,000 files loaded in ${loadMs} ms; while loading, ${describeLongTasks(loading, 50)}; ` +
      `while searching, ${describeLongTasks(searching, 50)}`;
    test.info().annotations.push({ type: 'load', description: summary });
    console.log(summary);
    if (loading.offending.length || searching.offending.length)
      console.log(`marks and long animation frames:\n  ${loading.lines.join('\n  ')}`);
    expect(loading.offending, "the app's frames blocking the main thread over 50 ms while loading").toEqual(
      [],
    );
    expect(
      searching.offending,
      "the app's frames blocking the main thread over 50 ms while searching during the index build",
    ).toEqual([]);
  },
);
