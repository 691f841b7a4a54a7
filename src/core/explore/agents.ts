/**
 * Three of explore's agents, each from one source of facts: the manifests (every ecosystem
 * core/analyze/manifests.ts reads, in the explored folder and the folders above it), the focus
 * search (the host's ranking for people, else codebase_search's engine), and the git history
 * (the host's port: branch, recent commits touching the path, uncommitted files, churn).
 */
import { manifestKindOf, parseManifest, type Manifest } from '../analyze/manifests';
import { codebaseSearch } from '../tools/codebase-search';
import type { Envelope } from '../tools/envelope';
import { ensureCodeIndexes } from '../tools/index-context';
import type { ToolContext } from '../tools/types';
import { localWorkspace } from '../workspace/local-root';
import { rankAcrossRoots } from '../workspace/ranked';
import type { ExploreCorpus } from './corpus';
import type { FocusHit, GitReport, ManifestSummary } from './types';

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** Manifests under the explored path, and those of the folders above it (a package's own manifest explains its folder). */
export async function manifestsAgent(
  corpus: ExploreCorpus,
): Promise<{ summaries: ManifestSummary[]; raw: Array<{ path: string; manifest: Manifest; text: string }> }> {
  const out: ManifestSummary[] = [];
  const raw: Array<{ path: string; manifest: Manifest; text: string }> = [];
  const seen = new Set<string>();
  for (const r of corpus.roots) {
    const all = await corpus.rootFiles(r.rootIndex);
    const prefix = r.dir ? `${r.dir}/` : '';
    const above = new Set<string>();
    for (let d = r.dir; d; d = dirOf(d)) above.add(dirOf(d));
    const picked = all.filter(
      (f) => manifestKindOf(f.path) && (f.path.startsWith(prefix) || above.has(dirOf(f.path))),
    );
    // the closest first: the folder's own, then the ones above; then by depth and name
    picked.sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
    for (const f of picked) {
      const path = corpus.workspace.displayPath(r.rootIndex, f.path);
      if (seen.has(path)) continue;
      seen.add(path);
      const text = await corpus.text(r.rootIndex, f.path);
      if (text === null) continue;
      const m = parseManifest(f.path, text);
      if (!m) continue;
      raw.push({ path, manifest: m, text });
      out.push({
        path,
        kind: m.kind,
        ...(m.name ? { name: m.name } : {}),
        ...(m.version ? { version: m.version } : {}),
        dependencies: m.dependencies.map((d) => ({
          name: d.name,
          version: d.version ?? '*',
          scope: d.scope,
        })),
        scripts: m.scripts ?? {},
        entryPoints: m.entryPoints ?? [],
        workspaces: m.workspaces ?? [],
        paths: m.paths ?? {},
        errors: m.errors,
      });
      await corpus.pause();
    }
  }
  return { summaries: out, raw };
}

/** The seed's `dependencies` string: one block per manifest. */
export function dependenciesText(manifests: readonly ManifestSummary[]): string {
  if (!manifests.length) return 'No dependency manifest found.';
  const blocks: string[] = [];
  for (const m of manifests) {
    const head = [m.name, m.version].filter(Boolean).join(' ');
    const lines = [`${m.path} (${m.kind}${head ? `: ${head}` : ''})`];
    const byScope = new Map<string, string[]>();
    for (const d of m.dependencies) {
      if (!byScope.has(d.scope)) byScope.set(d.scope, []);
      byScope.get(d.scope)!.push(d.version === '*' ? d.name : `${d.name} ${d.version}`);
    }
    for (const [scope, list] of byScope)
      lines.push(
        `  ${scope} (${list.length}): ${list.slice(0, 40).join(', ')}${list.length > 40 ? `, … ${list.length - 40} more` : ''}`,
      );
    const scripts = Object.entries(m.scripts);
    if (scripts.length) lines.push(`  scripts: ${scripts.map(([k, v]) => `${k} = ${v}`).join('; ')}`);
    if (m.entryPoints.length) lines.push(`  entry points: ${m.entryPoints.join(', ')}`);
    if (m.workspaces.length) lines.push(`  workspaces: ${m.workspaces.join(', ')}`);
    const paths = Object.entries(m.paths);
    if (paths.length) lines.push(`  paths: ${paths.map(([k, v]) => `${k} → ${v.join(' | ')}`).join('; ')}`);
    for (const e of m.errors) lines.push(`  could not read: ${e}`);
    blocks.push(lines.join('\n'));
  }
  return blocks.join('\n');
}

const FOCUS_LIMIT = 10;
const SNIPPET_LINES = 6;

/** The focus agent: the best chunks for the focus under the explored path, each with its first lines. */
export async function focusAgent(
  corpus: ExploreCorpus,
  ctx: ToolContext,
  focus: string,
  within: (path: string) => boolean,
): Promise<FocusHit[]> {
  const signal = corpus.signal;
  // ask for more than shown: the hits outside the explored path are dropped
  const want = FOCUS_LIMIT * 5;
  // Ranked mode's ranking once every root's code index is ready (the app after its build, the
  // CLI once a tool built it); before that codebase_search's engine, which needs no parser
  if (ctx.roots?.length && ctx.roots.every((r) => r.root.codeIndexReady)) {
    const parts = await ensureCodeIndexes({ ...ctx, signal }, 'explore');
    const out: FocusHit[] = [];
    for (const { hit, part, path } of rankAcrossRoots(parts, focus, want)) {
      if (!within(path)) continue;
      const lines = await part.lines(hit.chunk.path);
      out.push({
        path,
        startLine: hit.chunk.startLine,
        endLine: hit.chunk.endLine,
        symbol: hit.chunk.symbolName ?? '',
        score: hit.score,
        snippet: (lines ?? [])
          .slice(
            hit.chunk.startLine - 1,
            Math.min(hit.chunk.endLine, hit.chunk.startLine - 1 + SNIPPET_LINES),
          )
          .join('\n'),
      });
      if (out.length >= FOCUS_LIMIT) break;
    }
    return out;
  }
  const roots = ctx.roots ?? localWorkspace(ctx.workspace).toolRoots();
  const env = (await codebaseSearch.execute(
    { query: focus, limit: 100, include_content: false },
    { ...ctx, roots, signal },
  )) as Envelope;
  const out: FocusHit[] = [];
  for (const h of env.results.filter((x) => within(x.path)).slice(0, FOCUS_LIMIT)) {
    // the chunk's own first lines (the engine's snippet starts with the file's preamble)
    const at = corpus.workspace.locate(h.path);
    const text = at ? await corpus.text(at.rootIndex, at.rel) : null;
    const snippet =
      text === null
        ? ''
        : text
            .split('\n')
            .slice(h.startLine - 1, Math.min(h.endLine, h.startLine - 1 + SNIPPET_LINES))
            .join('\n');
    out.push({
      path: h.path,
      startLine: h.startLine,
      endLine: h.endLine,
      symbol: h.symbolName ?? '',
      score: h.score,
      snippet,
    });
  }
  return out;
}

export function focusText(focus: string | undefined, hits: readonly FocusHit[]): string {
  if (!focus) return 'No focus given.';
  if (!hits.length) return `Nothing under this path matches "${focus}".`;
  return hits
    .map(
      (h) =>
        `${h.path}:${h.startLine}-${h.endLine}${h.symbol ? ` ${h.symbol}` : ''}\n${h.snippet.replace(/^/gm, '    ')}`,
    )
    .join('\n');
}

const COMMITS_READ = 100;
const COMMITS_SHOWN = 15;

/** The git agent: the history of every explored root that has one (the first with history is reported). */
export async function gitAgent(corpus: ExploreCorpus, ctx: ToolContext): Promise<GitReport> {
  if (!ctx.history) return { available: false, reason: 'This host cannot read git history.' };
  let reason = 'No git history.';
  for (const r of corpus.roots) {
    const h = await ctx.history(r.rootIndex, COMMITS_READ, corpus.signal);
    if (!h.available) {
      reason = h.reason;
      continue;
    }
    const under = (p: string) => !r.dir || p === r.dir || p.startsWith(`${r.dir}/`);
    const display = (p: string) => corpus.workspace.displayPath(r.rootIndex, p);
    // commits that touched the explored path (all of them for a root)
    const touching = h.commits.filter(
      (c) => !r.dir || !c.changedFiles || c.changedFiles.some((f) => under(f.path)),
    );
    const churn = new Map<string, number>();
    const authors = new Map<string, number>();
    for (const c of touching) {
      authors.set(c.author, (authors.get(c.author) ?? 0) + 1);
      for (const f of c.changedFiles ?? [])
        if (under(f.path)) churn.set(f.path, (churn.get(f.path) ?? 0) + 1);
    }
    const top = (m: Map<string, number>, n: number) =>
      [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
    return {
      available: true,
      branch: h.branch,
      head: h.head,
      shallow: h.shallow,
      commits: touching.slice(0, COMMITS_SHOWN).map((c) => ({
        oid: c.oid,
        author: c.author,
        date: new Date(c.date).toISOString(),
        message: c.message.split('\n')[0].slice(0, 200),
        files: (c.changedFiles ?? []).filter((f) => under(f.path)).length,
      })),
      uncommitted: (h.uncommitted ?? [])
        .filter((u) => under(u.path))
        .map((u) => ({ path: display(u.path), status: u.status })),
      hotFiles: top(churn, 10).map(([path, commits]) => ({ path: display(path), commits })),
      authors: top(authors, 10).map(([name, commits]) => ({ name, commits })),
    };
  }
  return { available: false, reason };
}

export function gitText(g: GitReport): string {
  if (!g.available) return g.reason ?? 'No git history.';
  const lines = [
    `branch ${g.branch ?? '(detached HEAD)'} at ${g.head?.slice(0, 7) ?? '?'}${g.shallow ? ' (shallow clone)' : ''}`,
  ];
  for (const c of g.commits ?? [])
    lines.push(`${c.oid.slice(0, 7)} ${c.date.slice(0, 10)} ${c.author}: ${c.message} (${c.files} files)`);
  if (g.uncommitted?.length)
    lines.push(`uncommitted: ${g.uncommitted.map((u) => `${u.status} ${u.path}`).join(', ')}`);
  else lines.push('no uncommitted changes');
  if (g.hotFiles?.length)
    lines.push(`most changed: ${g.hotFiles.map((f) => `${f.path} (${f.commits})`).join(', ')}`);
  return lines.join('\n');
}
