/**
 * The main-thread long-task check shared by the performance specs, decided by attribution: the
 * Long Animation Frames API (`long-animation-frame`, Chromium 123+) reports every frame over
 * 50 ms with the scripts that ran in it (each over 5 ms: its sourceURL, function, invoker and
 * duration). A frame counts against the app only when one of its scripts is the app's own (its
 * sourceURL under the app's origin /assets/, the built bundle) and it blocked longer than the
 * bound. Frames of other work on this shared 2-core machine (the browser's own tasks, garbage
 * collection outside the app's scripts, Playwright's injected scripts) are printed, not counted.
 * A failure names each offending frame's scripts. The app's and the test's user-timing marks are
 * read back with the frames, so a failure also says when. LONG_TASK_TRACE=<dir> also saves a
 * Chromium performance trace of the measured part (startTrace .. stopTrace) as <dir>/<name>.json,
 * for the Performance panel or any trace viewer (`more` categories in LONG_TASK_TRACE_MORE, e.g.
 * `toplevel` for where each task was posted from).
 *
 * How long a frame blocked: its blockingDuration (the sum over its tasks of the part past 50 ms,
 * with the rendering added to the longest) plus 50 ms, i.e. its long task and that task's
 * rendering; "no task over 50 ms" is "no app frame blocking over 50 ms". Only scripts over 5 ms
 * are listed, so a long frame with no listed script at all (e.g. layout after many short app
 * callbacks, or the browser's own work) is printed under "unattributed", not counted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

/**
 * No retries: on this shared 2-core machine the app's own frames stretch while the renderer
 * waits for a core (measured at load 4-15: MessagePort.onmessage, first render and
 * Scheduler.yield continuations took 50-150 ms of wall time for 5-30 ms of work). So a frame
 * over the bound is judged by the main thread's CPU time in it, read from a Chromium trace of
 * the measured part (startTrace .. stopTrace: each RunTask's `tdur`, the thread's own time):
 * an app frame counts when its main-thread CPU time is over the bound too. A frame that was
 * long only on the wall clock is printed under "stretched", with both times. A check without a
 * trace judges wall time.
 */

/** One script entry of a long animation frame (PerformanceScriptTiming). */
export interface FrameScript {
  invoker: string;
  invokerType: string;
  sourceURL: string;
  sourceFunctionName: string;
  sourceCharPosition: number;
  startTime: number;
  duration: number;
  forcedStyleAndLayoutDuration: number;
}

/** One long animation frame, as recorded in the page. */
export interface LongFrame {
  startTime: number;
  duration: number;
  blockingDuration: number;
  renderStart: number;
  styleAndLayoutStart: number;
  scripts: FrameScript[];
}

export interface LongFrameReport {
  /** The app's frames in the window that blocked longer than the bound: the failures, described. */
  offending: string[];
  /** How long (ms) each of those blocked. */
  blocked: number[];
  /** The app's frames over the bound that started before `from` (reported, not counted). */
  before: number[];
  /** Long frames in the window with scripts, none of them the app's (reported, not counted). */
  others: number[];
  /** Long frames in the window with no script listed (reported, not counted). */
  unattributed: number[];
  /** The app's frames over the bound on the wall clock only: `wall/cpu` ms (reported, not counted). */
  stretched: string[];
  /** Marks and every long animation frame with its scripts, in time order, for a failure message. */
  lines: string[];
}

const LONG_TASK = 50;

/** How long a frame blocked: its long task and that task's rendering (see above). */
export const blockedMs = (f: LongFrame): number => Math.round(f.blockingDuration + LONG_TASK);

const scriptText = (s: FrameScript): string =>
  `${s.invoker || '(no invoker)'} [${s.invokerType}] ${s.sourceFunctionName || '(anonymous)'} ` +
  `${s.sourceURL || '(no source)'}@${s.sourceCharPosition} ${Math.round(s.duration)} ms` +
  (s.forcedStyleAndLayoutDuration > 1
    ? ` (forced layout ${Math.round(s.forcedStyleAndLayoutDuration)} ms)`
    : '');

const frameText = (f: LongFrame, isApp: (s: FrameScript) => boolean): string => {
  const end = f.startTime + f.duration;
  const render = f.renderStart ? Math.round(end - f.renderStart) : 0;
  const style = f.styleAndLayoutStart ? Math.round(end - f.styleAndLayoutStart) : 0;
  const app = Math.round(f.scripts.filter(isApp).reduce((sum, s) => sum + s.duration, 0));
  return (
    `frame ${Math.round(f.startTime)}: ${Math.round(f.duration)} ms, blocked ${blockedMs(f)} ms ` +
    `(blockingDuration ${Math.round(f.blockingDuration)}, render ${render}, style+layout ${style}, ` +
    `the app's scripts ${app}); scripts: ` +
    (f.scripts.length ? f.scripts.map(scriptText).join('; ') : 'none listed')
  );
};

/**
 * Start recording long animation frames on the page's main thread. By default from now on;
 * `fromStart` records from the start of every document the page loads next (an init script,
 * with the frames buffered before it ran), for a check that covers the app's start-up.
 */
export async function recordLongTasks(page: Page, { fromStart = false } = {}): Promise<void> {
  const install = (buffered: boolean) => {
    const w = window as unknown as { __longFrames: unknown[] };
    w.__longFrames = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as LongFrame[])
        w.__longFrames.push({
          startTime: e.startTime,
          duration: e.duration,
          blockingDuration: e.blockingDuration,
          renderStart: e.renderStart,
          styleAndLayoutStart: e.styleAndLayoutStart,
          scripts: e.scripts.map((s) => ({
            invoker: s.invoker,
            invokerType: s.invokerType,
            sourceURL: s.sourceURL,
            sourceFunctionName: s.sourceFunctionName,
            sourceCharPosition: s.sourceCharPosition,
            startTime: s.startTime,
            duration: s.duration,
            forcedStyleAndLayoutDuration: s.forcedStyleAndLayoutDuration,
          })),
        });
    }).observe({ type: 'long-animation-frame', buffered });
  };
  if (fromStart) await page.addInitScript(install, true);
  else await page.evaluate(install, false);
}

/** Set a user-timing mark in the page (shown among the frames). */
export async function mark(page: Page, name: string): Promise<void> {
  await page.evaluate((n) => void performance.mark(n), name);
}

/**
 * The long animation frames recorded so far, judged against `bound` (ms, default 50) between the
 * marks `from` and `to` (either may be left out). A frame that started before `from` counts only
 * for the part from the app's first script running at the mark to the frame's end (e.g. Chromium
 * builds the FileList of a 10,000-file folder inside the task that delivers the `change` event,
 * before the app has the files: the harness's stand-in for the native dialog, not the app's).
 */
export async function readLongTasks(
  page: Page,
  { from, to, bound = LONG_TASK }: { from?: string; to?: string; bound?: number } = {},
): Promise<LongFrameReport> {
  const { frames, marks, origin, start, end } = await page.evaluate(
    ({ from, to }) => {
      const at = (name: string | undefined, otherwise: number) =>
        name ? (performance.getEntriesByName(name)[0]?.startTime ?? otherwise) : otherwise;
      return {
        frames: (window as unknown as { __longFrames?: unknown[] }).__longFrames ?? [],
        marks: performance
          .getEntriesByType('mark')
          .filter((m) => m.name.startsWith('quarry:') || m.name.startsWith('test:'))
          .map((m) => ({ name: m.name, at: m.startTime })),
        origin: location.origin,
        start: at(from, 0),
        end: at(to, Infinity),
      };
    },
    { from, to },
  );
  const app = `${origin}/assets/`;
  const isApp = (s: FrameScript) => s.sourceURL.startsWith(app);
  const report: LongFrameReport = {
    offending: [],
    blocked: [],
    before: [],
    others: [],
    unattributed: [],
    stretched: [],
    lines: [],
  };
  const cpu = cpuClock.get(page);
  /** Counted when over the bound on the wall clock and, where the trace says, in CPU time. */
  const over = (wall: number, startTime: number, endTime: number): boolean => {
    if (wall <= bound) return false;
    const used = cpu?.(startTime, endTime);
    if (used === undefined || used > bound) return true;
    report.stretched.push(`${wall}/${Math.round(used)}`);
    return false;
  };
  for (const f of frames as LongFrame[]) {
    if (f.startTime >= end) continue;
    const appScripts = f.scripts.filter(isApp);
    const blocked = blockedMs(f);
    if (f.startTime + f.duration <= start) continue;
    if (f.startTime < start) {
      // only the app's part counts: from its first script still running at the mark (the one
      // that set it, for quarry:files-received) to the frame's end
      const first = appScripts.find((s) => s.startTime + s.duration >= start);
      const own = first ? Math.round(f.startTime + f.duration - first.startTime) : 0;
      if (first && over(own, first.startTime, f.startTime + f.duration)) {
        report.offending.push(`${frameText(f, isApp)} [the app's part after ${from}: ${own} ms]`);
        report.blocked.push(own);
      } else if (blocked > bound) report.before.push(blocked);
      continue;
    }
    if (blocked <= bound) continue;
    if (appScripts.length) {
      if (!over(blocked, f.startTime, f.startTime + f.duration)) continue;
      report.offending.push(frameText(f, isApp));
      report.blocked.push(blocked);
    } else if (f.scripts.length) report.others.push(blocked);
    else report.unattributed.push(blocked);
  }
  report.lines = [
    ...marks.map((m) => ({ at: m.at, text: `mark ${m.name} at ${Math.round(m.at)}` })),
    ...(frames as LongFrame[]).map((f) => ({
      at: f.startTime,
      text: `${f.scripts.some(isApp) ? 'APP   ' : 'other '}${frameText(f, isApp)}`,
    })),
  ]
    .sort((a, b) => a.at - b.at)
    .map((l) => l.text);
  return report;
}

/** One line for the log and the test's annotations: what was counted and what was only reported. */
export function describeLongTasks(r: LongFrameReport, bound = LONG_TASK): string {
  return (
    `app frames blocking over ${bound} ms: ${JSON.stringify(r.blocked)}; not counted: other scripts' ` +
    `${JSON.stringify(r.others)}, unattributed ${JSON.stringify(r.unattributed)}, ` +
    `stretched (wall/cpu ms) ${JSON.stringify(r.stretched)}` +
    (r.before.length ? `, before the app had the files ${JSON.stringify(r.before)}` : '')
  );
}

/** Per page: the main thread's CPU time (ms) between two of the page's performance.now() times. */
const cpuClock = new WeakMap<Page, (from: number, to: number) => number>();
const CPU_CATEGORIES = ['disabled-by-default-devtools.timeline', 'devtools.timeline', 'blink.user_timing'];
const TRACE_MARK = 'test:trace-start';

/**
 * Start a Chromium trace of the page: the measured part's main-thread CPU time (readLongTasks).
 * LONG_TASK_TRACE=<dir> records more (V8, GC) and saves it at stopTrace.
 */
export async function startTrace(page: Page): Promise<void> {
  const more = process.env.LONG_TASK_TRACE
    ? [
        ...(process.env.LONG_TASK_TRACE_MORE ?? '').split(',').filter(Boolean),
        'disabled-by-default-devtools.timeline.frame',
        'v8',
        'v8.execute',
        'disabled-by-default-v8.cpu_profiler',
        'disabled-by-default-v8.gc',
      ]
    : [];
  await page
    .context()
    .browser()!
    .startTracing(page, { categories: [...more, ...CPU_CATEGORIES] });
  await mark(page, TRACE_MARK);
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { startTime?: number } };
}

/**
 * The main thread's CPU clock from a trace: its top-level tasks' thread time (`tdur`), each
 * counted for the part of it inside the window. The trace's clock is tied to performance.now()
 * by TRACE_MARK (its event carries both times). Undefined when the trace lacks either.
 */
export function cpuClockOf(events: TraceEvent[]): ((from: number, to: number) => number) | undefined {
  const m = events.find((e) => e.name === TRACE_MARK && e.args?.data?.startTime !== undefined);
  if (!m) return undefined;
  const offsetUs = m.ts - m.args!.data!.startTime! * 1000;
  const tasks = events
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === m.pid && e.tid === m.tid)
    .filter((e) => e.dur !== undefined && e.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts);
  if (!tasks.length) return undefined;
  const top: TraceEvent[] = [];
  for (const t of tasks) {
    const last = top[top.length - 1];
    if (!last || t.ts >= last.ts + last.dur!) top.push(t); // nested tasks are in their parent's time
  }
  return (from, to) => {
    const lo = from * 1000 + offsetUs;
    const hi = to * 1000 + offsetUs;
    let us = 0;
    for (const t of top) {
      const end = t.ts + t.dur!;
      if (end <= lo || t.ts >= hi || t.dur === 0) continue;
      us += (t.tdur! * (Math.min(end, hi) - Math.max(t.ts, lo))) / t.dur!;
    }
    return us / 1000;
  };
}

/** Stop the trace started by startTrace; keep its CPU clock for readLongTasks; save it as <LONG_TASK_TRACE>/<name>.json when asked. */
export async function stopTrace(page: Page, name: string): Promise<void> {
  const buffer = await page.context().browser()!.stopTracing();
  const events = (JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const clock = cpuClockOf(events);
  if (clock) cpuClock.set(page, clock);
  const dir = process.env.LONG_TASK_TRACE;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name.replace(/\W+/g, '-')}.json`), buffer);
}

/**
 * Waits that cost the page nothing, for the measured part of a test: while an `expect` polls
 * for an element that is not there yet, Playwright takes an aria snapshot of the whole page on
 * every poll (tasks of 25-250 ms on a page of search results, traced), which the recorder counts
 * as the app's. These poll a cheap query with `waitForFunction` (or use `locator.waitFor`).
 */
export async function until(
  page: Page,
  what: string,
  fn: (arg: string) => boolean,
  arg = '',
  timeout = 30_000,
): Promise<void> {
  try {
    await page.waitForFunction(fn, arg, { timeout, polling: 100 });
  } catch (err) {
    throw new Error(`waiting for ${what}: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
}

/** (In the page) a repository named `name` is open: in the header, no open in progress, the tree shown. */
export const repoOpen = (name: string) =>
  !!document.querySelector('[data-testid="repo-name"]')?.textContent?.includes(name) &&
  !document.querySelector('[data-testid="opening"]') &&
  !!document.querySelector('[role="tree"]');

/** (In the page) the code index is built. */
export const indexReady = () =>
  document.querySelector('[data-testid="index-status"]')?.getAttribute('data-state') === 'ready';

/** (In the page) a search has finished: "Showing 5,000 of …", "12 matches in 3 files (…)", "No matches in …". */
export const searchDone = () =>
  /^(Showing [\d,]+ of|No matches in|[\d,]+ match(es)? in)/.test(
    document.querySelector('[data-testid="search-summary"]')?.textContent ?? '',
  );
