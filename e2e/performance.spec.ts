import { expect, test } from './fixtures';
import { tenThousandFiles, writeDiskRepo } from './helpers/repos';

// Playwright's trace recorder snapshots the DOM in the page's main thread around every
// action and assertion (tasks of 50-150 ms on a busy machine): harness work, not the app's,
// so this measurement runs without it.
// The service worker's first-visit precache (8 MB, off the main thread) is not part of loading a folder.
test.use({ trace: 'off', serviceWorkers: 'block' });
// A timing assertion on a shared, oversubscribed 2-core machine. Traces showed the last long
// tasks were frames of 20-30 ms of CPU stretched past 50 ms while the renderer waited for a core
// (the worker's index build, then other processes); the build now gives way to foreground work
// and a batch of results costs less to lay out. One retry absorbs a rare starved frame: every
// attempt prints its long tasks with the test's step marks, so a regression stays visible.
const retries = process.env.PERF_RETRIES ?? '';
test.describe.configure({ retries: /^\d+$/.test(retries) ? Number(retries) : 1 });

test('the main thread never blocks for more than 50 ms while 10,000 files load', async ({ quarry, page }) => {
  test.setTimeout(180_000);
  const dir = writeDiskRepo('ten-thousand', tenThousandFiles());
  await quarry.goto();
  await quarry.waitForRepo('quarry (demo)');

  // Record every long task (> 50 ms) on the main thread from here on.
  // Long animation frames name the scripts behind a long task: printed when the test fails.
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[]; __frames: string[] };
    w.__longTasks = [];
    w.__frames = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        w.__longTasks.push({ start: e.startTime, duration: Math.round(e.duration) });
        // What the browser says was behind it (script container, or 'unknown' for non-script work).
        const a = (e as unknown as { attribution?: Array<{ name: string; containerType: string; containerName: string }> }).attribution?.[0];
        w.__frames.push(
          `longtask ${Math.round(e.startTime)}: ${Math.round(e.duration)} ms, ${e.name}${a ? ` (${a.name}, ${a.containerType || 'no container'}${a.containerName ? ` ${a.containerName}` : ''})` : ''}`,
        );
      }
    }).observe({ type: 'longtask' });
    new PerformanceObserver((list) => {
      type Script = { invoker: string; sourceFunctionName: string; sourceCharPosition: number; duration: number; forcedStyleAndLayoutDuration: number };
      for (const e of list.getEntries() as unknown as Array<{
        startTime: number;
        duration: number;
        blockingDuration: number;
        renderStart: number;
        styleAndLayoutStart: number;
        scripts: Script[];
      }>) {
        if (e.blockingDuration <= 0) continue;
        const scripts = e.scripts.map((s) => `${s.invoker}${s.sourceFunctionName ? ` ${s.sourceFunctionName}` : ''}@${s.sourceCharPosition} ${Math.round(s.duration)}ms`);
        const render = e.renderStart ? Math.round(e.startTime + e.duration - e.renderStart) : 0;
        w.__frames.push(`${Math.round(e.startTime)}: ${Math.round(e.duration)} ms (blocking ${Math.round(e.blockingDuration)}, render ${render}) ${scripts.join(', ')}`);
      }
    }).observe({ type: 'long-animation-frame' });
  });
  const t0 = Date.now();
  await quarry.folderInput.setInputFiles(dir);
  await expect(page.getByRole('progressbar')).toBeVisible();
  await quarry.waitForRepo('ten-thousand', 100_000);
  await expect(quarry.repoName).toContainText('10,000 files');
  const loadMs = Date.now() - t0;
  const mark = (name: string) => page.evaluate((n) => void performance.mark(n), name);
  await mark('test:loaded');
  await quarry.treeItem('pkg0').click();
  await expect(quarry.treeItem('mod0.ts')).toBeVisible();
  await mark('test:search');
  await quarry.search('value42_7');
  await quarry.waitForSearchDone();
  await expect(quarry.summary).toContainText('22 matches in 11 files'); // mod7 and mod70-79
  // Chromium builds the FileList of a 10,000-file folder inside the task that delivers the
  // `change` event (the harness's stand-in for the native folder dialog, not Quarry's load):
  // that one task, which started before the app received the files, is reported but not counted.
  const { longTasks, delivery, frames } = await page.evaluate(() => {
    const received = performance.getEntriesByName('quarry:files-received')[0]?.startTime ?? 0;
    const w = window as unknown as { __longTasks: { start: number; duration: number }[]; __frames: string[] };
    const all = w.__longTasks;
    return {
      longTasks: all.filter((t) => t.start >= received).map((t) => t.duration),
      delivery: all.filter((t) => t.start < received).map((t) => t.duration),
      frames: [
        ...performance
          .getEntriesByType('mark')
          .filter((m) => m.name.startsWith('quarry:') || m.name.startsWith('test:'))
          .map((m) => `mark ${m.name} at ${Math.round(m.startTime)}`),
        ...w.__frames,
      ],
    };
  });
  if (longTasks.length) console.log(`long animation frames:\n  ${frames.join('\n  ')}`);

  console.log(`file delivery task(s) before the app saw the files: ${JSON.stringify(delivery)} ms`);
  test.info().annotations.push({ type: 'load', description: `10,000 files loaded in ${loadMs} ms; long tasks: ${JSON.stringify(longTasks)}` });
  console.log(`10,000 files loaded in ${loadMs} ms; long tasks: ${JSON.stringify(longTasks)}`);
  expect(longTasks, 'main-thread tasks over 50 ms (ms)').toEqual([]);
});
