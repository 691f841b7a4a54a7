/**
 * explore's run: the seed's agents as analyzers that run concurrently over one shared corpus
 * (interleaved on the event loop: each yields on a time budget, so a worker still answers
 * cancel and other calls). Each has its own time budget; one that throws or runs out of time
 * becomes an error entry and the report still arrives with the rest. `onUpdate` receives the
 * report as each analyzer finishes (the app shows it section by section).
 *
 *   shallow   tree (with key files), manifests
 *   standard  + patterns, + focus when a focus is given
 *   deep      + imports (the import graph), + git (history)
 */
import { QuarryError, toQuarryError } from '../errors';
import { elapsedSince, now } from '../jobs/yielder';
import { languageForPath } from '../chunk/languages';
import type { ToolContext } from '../tools/types';
import { dependenciesText, focusAgent, focusText, gitAgent, gitText, manifestsAgent } from './agents';
import { analyzersFor } from './analyzers';
import { ExploreCorpus, resolveExploreRoots, type CorpusFile } from './corpus';
import { importGraph } from './imports';
import { keyFiles } from './key-files';
import { detectPatterns } from './patterns';
import { buildSummary } from './summary';
import { drawTree } from './tree';
import type { AnalyzerName, AnalyzerRun, ExploreDepth, ExploreResult } from './types';

/** Each analyzer's time budget by depth (the CLI and an agent wait for the whole report). */
export const ANALYZER_BUDGET_MS: Record<ExploreDepth, number> = {
  shallow: 20_000,
  standard: 45_000,
  deep: 90_000,
};

/** Source files the pattern agent reads (the seed's agent samples; past this, evenly spaced ones). */
const PATTERN_SAMPLE_FILES = 4000;
const PATTERN_MAX_FILE_BYTES = 512 * 1024;
/** Files whose text the key-file agent reads for their roles (names that may be key files). */
const MAYBE_KEY =
  /(^|\/)(readme|license|contributing|changelog|security)[^/]*$|(^|\/)(main|index|mod|lib|app|cli|server|__main__|__init__|manage|wsgi|asgi|program|\w*application)\.[^/]+$|(^|\/)\.github\/workflows\/[^/]+\.ya?ml$|(^|\/)[^/]*\.config\.[cm]?[jt]s$|(^|\/)(dockerfile|makefile|\.gitlab-ci\.yml|jenkinsfile)$/i;

export interface ExploreArgs {
  path: string;
  focus?: string;
  depth: ExploreDepth;
}

export interface ExploreOptions {
  /** The report so far, each time an analyzer finishes. */
  onUpdate?: (partial: ExploreResult) => void;
  /** Override the per-analyzer budget (tests). */
  budgetMs?: number;
  /** Replace an analyzer (tests: one made to throw or to hang). */
  replace?: Partial<Record<AnalyzerName, (signal: AbortSignal) => Promise<unknown>>>;
}

function sample<T>(list: readonly T[], n: number): T[] {
  if (list.length <= n) return [...list];
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(list[Math.floor((i * list.length) / n)]);
  return out;
}

/** The report before any analyzer has run. */
function emptyResult(label: string, args: ExploreArgs): ExploreResult {
  return {
    path: label,
    depth: args.depth,
    ...(args.focus ? { focus: args.focus } : {}),
    tree: '',
    key_files: [],
    patterns: [],
    dependencies: '',
    dependencies_detail: [],
    focus_findings: args.focus ? '' : 'No focus given.',
    focus_findings_detail: [],
    summary: '',
    analyzers: [],
    errors: [],
    files_scanned: 0,
  };
}

/** The texts of the source files the pattern agent reads (a sample of them past PATTERN_SAMPLE_FILES). */
async function sourceTexts(c: ExploreCorpus, files: CorpusFile[]) {
  const picked = sample(
    files.filter((f) => f.size <= PATTERN_MAX_FILE_BYTES && languageForPath(f.rel)),
    PATTERN_SAMPLE_FILES,
  );
  const out: Array<{ path: string; text: string }> = [];
  for (const f of picked) {
    const text = await c.text(f.rootIndex, f.rel);
    if (text !== null) out.push({ path: f.path, text });
    await c.pause();
  }
  return { texts: out, sampled: picked.length, of: files.length };
}

/** A promise that rejects when `signal` aborts (with its reason if an Error, else as a cancel); never resolves. */
function rejectOnAbort(signal: AbortSignal): Promise<never> {
  const stopped = new Promise<never>((_, reject) => {
    const fail = () =>
      reject(
        signal.reason instanceof Error
          ? signal.reason
          : new QuarryError('Cancelled', 'The explore run was cancelled'),
      );
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
  stopped.catch(() => undefined);
  return stopped;
}

export async function runExplore(
  ctx: ToolContext,
  args: ExploreArgs,
  options: ExploreOptions = {},
): Promise<ExploreResult> {
  const roots = await resolveExploreRoots(ctx.workspace, args.path);
  const corpus = new ExploreCorpus(ctx.workspace, roots, ctx.signal);
  const names = analyzersFor(args.depth, args.focus);
  const budget = options.budgetMs ?? ANALYZER_BUDGET_MS[args.depth];
  const label = args.path.replace(/\\/g, '/').replace(/\/+$/, '') || '.';
  const result = emptyResult(label, args);
  const filesP = corpus.files();
  filesP.catch(() => undefined);
  const explored = roots.map((r) => ctx.workspace.displayPath(r.rootIndex, r.file ?? r.dir));
  const within = (path: string) => explored.some((d) => !d || path === d || path.startsWith(`${d}/`));
  // key files wait for the manifests (their entry points), whether that analyzer runs, fails or is skipped
  let manifestsRaw: Awaited<ReturnType<typeof manifestsAgent>>['raw'] = [];
  let manifestsEnded: () => void = () => undefined;
  const manifestsDone = new Promise<void>((resolve) => (manifestsEnded = resolve));
  const bodies: Record<AnalyzerName, (c: ExploreCorpus) => Promise<void>> = {
    async manifests(c) {
      const m = await manifestsAgent(c);
      manifestsRaw = m.raw;
      result.dependencies_detail = m.summaries;
      result.dependencies = dependenciesText(m.summaries);
    },
    async tree(c) {
      const files = await filesP;
      result.files_scanned = files.length;
      const rels = files.map((f) => {
        const r = roots.find((x) => x.rootIndex === f.rootIndex)!;
        const rel = r.dir ? f.rel.slice(r.dir.length + 1) : f.rel;
        return roots.length > 1 ? `${ctx.workspace.roots[f.rootIndex].name}/${rel}` : rel;
      });
      result.tree = drawTree(
        label === '.' ? (roots.length > 1 ? '.' : ctx.workspace.roots[roots[0].rootIndex].name) : label,
        rels,
      );
      const withText: Array<{ path: string; text?: string }> = [];
      for (const f of files) {
        const text =
          MAYBE_KEY.test(f.rel) && f.size <= PATTERN_MAX_FILE_BYTES
            ? ((await c.text(f.rootIndex, f.rel)) ?? undefined)
            : undefined;
        withText.push(text === undefined ? { path: f.path } : { path: f.path, text });
        await c.pause();
      }
      await manifestsDone;
      result.key_files = keyFiles(withText, manifestsRaw);
    },
    async patterns(c) {
      const { texts } = await sourceTexts(c, await filesP);
      result.patterns = detectPatterns(texts, { signal: c.signal });
    },
    async focus(c) {
      result.focus_findings_detail = await focusAgent(c, ctx, args.focus!, within);
      result.focus_findings = focusText(args.focus, result.focus_findings_detail);
    },
    async imports(c) {
      result.import_graph = await importGraph(c);
    },
    async git(c) {
      result.git_history_detail = await gitAgent(c, ctx);
      result.git_history = gitText(result.git_history_detail);
    },
  };

  const runOne = async (name: AnalyzerName): Promise<void> => {
    const started = now();
    const own = new AbortController();
    const stopOwn = () => own.abort(ctx.signal?.reason);
    ctx.signal?.addEventListener('abort', stopOwn, { once: true });
    let outOfTime = false;
    const timer = setTimeout(() => {
      outOfTime = true;
      own.abort(
        new QuarryError(
          'EngineError',
          `the ${name} analyzer ran out of its ${Math.round(budget / 1000)} s budget`,
        ),
      );
    }, budget);
    // ends the wait at the budget or on cancel, even for an analyzer that never looks at its signal
    const stopped = rejectOnAbort(own.signal);
    const entry: AnalyzerRun = { name, status: 'ok', ms: 0 };
    try {
      const replaced = options.replace?.[name];
      const work = replaced
        ? replaced(own.signal).then(() => undefined)
        : bodies[name](corpus.fork(own.signal));
      work.catch(() => undefined);
      await Promise.race([work, stopped]);
    } catch (err) {
      const qe = toQuarryError(err);
      entry.status = ctx.signal?.aborted ? 'cancelled' : outOfTime ? 'timeout' : 'error';
      entry.error = qe.message;
      result.errors.push({ analyzer: name, message: qe.message });
    } finally {
      clearTimeout(timer);
      ctx.signal?.removeEventListener('abort', stopOwn);
    }
    entry.ms = Math.round(elapsedSince(started));
    result.analyzers.push(entry);
    if (!ctx.signal?.aborted) options.onUpdate?.(structuredCloneSafe(result));
  };

  const runs = names.map((name) =>
    name === 'manifests' ? runOne(name).finally(manifestsEnded) : runOne(name),
  );
  if (!names.includes('manifests')) manifestsEnded();
  await Promise.all(runs);
  if (ctx.signal?.aborted) throw new QuarryError('Cancelled', 'The explore run was cancelled');
  result.analyzers.sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name));
  const named =
    label === '.'
      ? `The repository ${roots.map((r) => ctx.workspace.roots[r.rootIndex].name).join(' + ')}`
      : label;
  result.summary = buildSummary(result, await filesP.catch(() => []), named);
  return result;
}

/** A copy for the listener (the run goes on filling `result`). */
function structuredCloneSafe<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}
