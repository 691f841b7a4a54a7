/**
 * explore's import agent (deep): every source file under the explored path, its imports
 * resolved to files of the repository (core/analyze/imports-js.ts and imports-other.ts), then
 * the graph analysed (core/analyze/graph.ts): cycles over runtime edges, type-only and dynamic
 * cycles apart, hubs, orphans. External packages and builtins are leaf nodes, one per package.
 *
 * Resolution context per root, read once: every file; each tsconfig/jsconfig (its `paths` and
 * `baseUrl`, inherited through a relative `extends`), the nearest one above a file applying;
 * the workspace's own packages by name with their `exports` subpaths (a monorepo's package
 * imports resolve to the package's source file, `dist/` read as `src/` when only the source
 * is in the repository); each go.mod's module path, the nearest above a file applying.
 */
import { analyzeGraph, type GraphEdge } from '../analyze/graph';
import {
  extractJsImports,
  resolveJsImport,
  type JsResolveContext,
  type Resolution,
} from '../analyze/imports-js';
import {
  extractImports,
  languageOfImports,
  resolveImport,
  type OtherLanguage,
} from '../analyze/imports-other';
import { isTestPath } from '../analyze/files';
import { parseManifest, type Manifest } from '../analyze/manifests';
import type { CorpusFile, ExploreCorpus } from './corpus';
import type { GraphEdgeReport, GraphNodeReport, ImportGraphReport } from './types';

/** The drawn graph's size: past it the best-connected files are kept (the analysis covers every file). */
export const GRAPH_NODE_CAP = 3000;
export const GRAPH_EDGE_CAP = 15000;
const HUBS = 10;

type Lang = 'js' | OtherLanguage;

const JS_FILE = /\.(m|c)?[jt]sx?$|\.(vue|svelte|astro)$/;
const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

export function importLanguage(path: string): Lang | null {
  if (JS_FILE.test(path) && !path.endsWith('.d.ts')) return 'js';
  return languageOfImports(path);
}

interface RootContext {
  files: Set<string>;
  tsconfigs: Map<string, NonNullable<JsResolveContext['tsconfig']>>;
  packages: Map<string, string>;
  exportsOf: Map<string, Map<string, string>>;
  goModules: Map<string, string>;
  entryPoints: string[];
}

/** An npm `exports` value to one target: `source` first, then the conditions a bundler takes. */
function exportTarget(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(exportTarget).find((x) => x) ?? null;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const k of ['source', 'import', 'module', 'default', 'require', 'node', 'browser', 'types'])
      if (k in o) return exportTarget(o[k]);
  }
  return null;
}

function packageExports(text: string): Map<string, string> {
  const map = new Map<string, string>();
  let exp: unknown;
  try {
    exp = (JSON.parse(text) as Record<string, unknown>).exports;
  } catch {
    return map;
  }
  if (typeof exp === 'string' || Array.isArray(exp)) exp = { '.': exp };
  if (!exp || typeof exp !== 'object') return map;
  const entries = Object.entries(exp as Record<string, unknown>);
  // conditions at the top level ({ import, require }) mean the package's "." export
  if (entries.length && entries.every(([k]) => !k.startsWith('.'))) {
    const t = exportTarget(exp);
    if (t) map.set('.', t);
    return map;
  }
  for (const [k, v] of entries) {
    const t = exportTarget(v);
    if (t) map.set(k, t);
  }
  return map;
}

async function rootContext(corpus: ExploreCorpus, rootIndex: number): Promise<RootContext> {
  const walked = await corpus.rootFiles(rootIndex);
  const files = new Set(walked.map((f) => f.path));
  const ctx: RootContext = {
    files,
    tsconfigs: new Map(),
    packages: new Map(),
    exportsOf: new Map(),
    goModules: new Map(),
    entryPoints: [],
  };
  const configs = new Map<string, Manifest>();
  for (const f of walked) {
    const name = f.path.slice(f.path.lastIndexOf('/') + 1);
    if (!/^(package\.json|tsconfig(\..+)?\.json|jsconfig\.json|go\.mod|Cargo\.toml)$/.test(name)) continue;
    const text = await corpus.text(rootIndex, f.path);
    if (text === null) continue;
    const dir = dirOf(f.path);
    if (name === 'package.json') {
      const m = parseManifest(f.path, text);
      if (m?.name) {
        ctx.packages.set(m.name, dir);
        ctx.exportsOf.set(m.name, packageExports(text));
      }
      for (const e of m?.entryPoints ?? []) ctx.entryPoints.push(dir ? `${dir}/${e}` : e);
    } else if (name === 'go.mod') {
      const m = parseManifest(f.path, text);
      if (m?.module) ctx.goModules.set(dir, m.module);
    } else if (name === 'Cargo.toml') {
      for (const e of ['src/main.rs', 'src/lib.rs']) ctx.entryPoints.push(dir ? `${dir}/${e}` : e);
    } else {
      const m = parseManifest(f.path, text);
      if (m) configs.set(f.path, m);
    }
  }
  // paths/baseUrl inherited through relative `extends` (the nearest config that sets them)
  const effective = (
    path: string,
    seen = new Set<string>(),
  ): { dir: string; baseUrl?: string; paths?: Record<string, string[]> } | null => {
    const m = configs.get(path);
    if (!m || seen.has(path)) return null;
    seen.add(path);
    if (m.paths || m.baseUrl !== undefined) return { dir: dirOf(path), baseUrl: m.baseUrl, paths: m.paths };
    for (const ext of m.extends ?? []) {
      if (!ext.startsWith('.')) continue;
      const target = [dirOf(path), ext.endsWith('.json') ? ext : `${ext}.json`].filter(Boolean).join('/');
      const norm = target
        .split('/')
        .reduce<string[]>((acc, s) => (s === '..' ? acc.slice(0, -1) : s === '.' ? acc : [...acc, s]), [])
        .join('/');
      const got = effective(norm, seen);
      if (got) return got;
    }
    return null;
  };
  for (const path of configs.keys()) {
    // tsconfig.json (or jsconfig.json) is the folder's config; tsconfig.app.json and the like only when it has none
    const dir = dirOf(path);
    const eff = effective(path);
    if (!eff) continue;
    const main = /\/?(tsconfig|jsconfig)\.json$/.test(path);
    if (main || !ctx.tsconfigs.has(dir)) ctx.tsconfigs.set(dir, eff);
  }
  return ctx;
}

function nearest<T>(map: Map<string, T>, file: string): [string, T] | null {
  for (let dir = dirOf(file); ; dir = dirOf(dir)) {
    if (map.has(dir)) return [dir, map.get(dir)!];
    if (!dir) return null;
  }
}

/** A workspace package's subpath through its `exports`, to a file of the repository. */
function viaExports(ctx: RootContext, spec: string): string | null {
  const parts = spec.split('/');
  const name = spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const dir = ctx.packages.get(name);
  const exports = ctx.exportsOf.get(name);
  if (dir === undefined || !exports?.size) return null;
  const sub = '.' + spec.slice(name.length);
  let target = exports.get(sub);
  if (!target) {
    for (const [k, v] of exports) {
      const star = k.indexOf('*');
      if (star >= 0 && sub.startsWith(k.slice(0, star)) && sub.endsWith(k.slice(star + 1))) {
        target = v.replace('*', sub.slice(star, sub.length - (k.length - star - 1)));
        break;
      }
    }
  }
  if (!target) return null;
  const rel = target.replace(/^\.\//, '');
  const candidates = [rel, rel.replace(/^(dist|lib|build|out)\//, 'src/')].map((r) =>
    dir ? `${dir}/${r}` : r,
  );
  for (const c of candidates) {
    const r = resolveJsImport(
      `./${c.slice(dir ? dir.length + 1 : 0)}`,
      dir ? `${dir}/package.json` : 'package.json',
      { files: ctx.files },
    );
    if ('file' in r) return r.file;
    const stem = c.replace(/\.d\.ts$/, '').replace(/\.(m|c)?js$/, '');
    for (const ext of ['.ts', '.tsx', '.mts']) if (ctx.files.has(stem + ext)) return stem + ext;
  }
  return null;
}

function resolveOne(lang: Lang, spec: string, from: string, ctx: RootContext): Resolution {
  if (lang === 'js') {
    if (!spec.startsWith('.') && !spec.startsWith('/')) {
      const exported = viaExports(ctx, spec);
      if (exported) return { file: exported };
    }
    const ts = nearest(ctx.tsconfigs, from)?.[1];
    return resolveJsImport(spec, from, { files: ctx.files, tsconfig: ts, packages: ctx.packages });
  }
  const mod = lang === 'go' ? nearest(ctx.goModules, from) : null;
  return resolveImport(lang, spec, from, {
    files: ctx.files,
    goModule: mod ? { dir: mod[0], path: mod[1] } : undefined,
  });
}

/** Orphans worth reporting: not tests, configs, scripts, declarations, nor languages whose files are reached otherwise (Go packages, C sources). */
function orphanCandidate(path: string): boolean {
  if (
    isTestPath(path) ||
    /(^|\/)(scripts?|bin|tools|examples?|fixtures?|benchmarks?|bench|docs?)\//.test(path)
  )
    return false;
  if (/\.config\.[^/]+$|(^|\/)\.[^/]+$|\.d\.ts$|\.stories\.[^/]+$/.test(path)) return false;
  const lang = importLanguage(path);
  return lang === 'js' || lang === 'python' || lang === 'rust';
}

/** Entry points by convention (beside the manifests' own). */
const CONVENTIONAL_ENTRY =
  /(^|\/)(main|index|mod|app|App|cli|server|__main__|manage|wsgi|asgi|setup|conftest|lib)\.[^/]+$|(^|\/)(pages|app|routes)\/|(^|\/)cmd\/[^/]+\/main\.go$|\.worker\.[^/]+$/;

export async function importGraph(corpus: ExploreCorpus): Promise<ImportGraphReport> {
  const nodes = new Set<string>();
  const external = new Set<string>();
  const edges: Array<GraphEdge & { line: number }> = [];
  const unresolved: ImportGraphReport['unresolved'] = [];
  const entryPoints = new Set<string>();
  const files = await corpus.files();
  const contexts = new Map<number, RootContext>();
  for (const r of corpus.roots)
    if (!contexts.has(r.rootIndex)) contexts.set(r.rootIndex, await rootContext(corpus, r.rootIndex));
  for (const [rootIndex, ctx] of contexts)
    for (const e of ctx.entryPoints)
      if (ctx.files.has(e)) entryPoints.add(corpus.workspace.displayPath(rootIndex, e));
  const memo = new Map<string, Resolution>();
  const resolve = (f: CorpusFile, lang: Lang, specifier: string): Resolution => {
    // resolution depends on the importing folder (the whole file for Rust's `mod`), and Go's on nothing else
    const key = `${f.rootIndex}\0${lang}\0${lang === 'go' ? '' : lang === 'rust' ? f.rel : dirOf(f.rel)}\0${specifier}`;
    let res = memo.get(key);
    if (!res) memo.set(key, (res = resolveOne(lang, specifier, f.rel, contexts.get(f.rootIndex)!)));
    return res;
  };
  const refsOf = async (f: CorpusFile, lang: Lang) => {
    const text = await corpus.text(f.rootIndex, f.rel);
    if (text === null) return [];
    return lang === 'js'
      ? extractJsImports(text)
      : extractImports(lang, text).map((r) => ({ ...r, kind: 'static' as const }));
  };
  for (const f of files) {
    const lang = importLanguage(f.rel);
    if (!lang) continue;
    nodes.add(f.path);
    if (CONVENTIONAL_ENTRY.test(f.rel)) entryPoints.add(f.path);
    for (const ref of await refsOf(f, lang)) {
      const res = resolve(f, lang, ref.specifier);
      if ('file' in res) {
        const to = corpus.workspace.displayPath(f.rootIndex, res.file);
        if (to === f.path && lang === 'go') continue; // a package's own first file
        nodes.add(to);
        edges.push({ from: f.path, to, kind: ref.kind, line: ref.line });
      } else if ('unresolved' in res) {
        unresolved.push({ from: f.path, specifier: ref.specifier, line: ref.line });
      } else {
        const name = 'external' in res ? res.external : `node:${res.builtin}`;
        external.add(name);
        edges.push({ from: f.path, to: name, kind: ref.kind, line: ref.line });
      }
    }
    await corpus.pause();
  }
  // A folder's file imported only from outside it is no orphan: the rest of the root is read for that alone.
  const importedFromOutside = new Set<string>();
  const inside = new Set(files.map((f) => f.path));
  for (const r of corpus.roots) {
    if (!r.dir && !r.file) continue;
    for (const w of await corpus.rootFiles(r.rootIndex)) {
      const path = corpus.workspace.displayPath(r.rootIndex, w.path);
      const lang = importLanguage(w.path);
      if (!lang || inside.has(path)) continue;
      const f: CorpusFile = { path, rootIndex: r.rootIndex, rel: w.path, size: w.size };
      for (const ref of await refsOf(f, lang)) {
        const res = resolve(f, lang, ref.specifier);
        if ('file' in res) importedFromOutside.add(corpus.workspace.displayPath(r.rootIndex, res.file));
      }
      await corpus.pause();
    }
  }
  const fileNodes = [...nodes];
  const internal = edges.filter((e) => nodes.has(e.to));
  const report = analyzeGraph(fileNodes, internal, { entryPoints: [...entryPoints], hubs: HUBS });
  const fanIn = new Map<string, number>();
  const fanOut = new Map<string, number>();
  const seen = new Set<string>();
  for (const e of edges) {
    const k = `${e.from}\0${e.to}`;
    if (seen.has(k)) continue;
    seen.add(k);
    fanOut.set(e.from, (fanOut.get(e.from) ?? 0) + 1);
    fanIn.set(e.to, (fanIn.get(e.to) ?? 0) + 1);
  }
  const allNodes: GraphNodeReport[] = [
    ...fileNodes.map((id) => ({
      id,
      kind: 'file' as const,
      fanIn: fanIn.get(id) ?? 0,
      fanOut: fanOut.get(id) ?? 0,
    })),
    ...[...external]
      .filter((id) => !nodes.has(id))
      .map((id) => ({ id, kind: 'external' as const, fanIn: fanIn.get(id) ?? 0, fanOut: 0 })),
  ];
  const { kept, truncated } = capGraph(
    allNodes,
    edges,
    report.cycles.flatMap((c) => c.files),
  );
  return {
    files: fileNodes.length,
    internalEdges: internal.length,
    externals: external.size,
    unresolved: unresolved.slice(0, 200),
    cycles: report.cycles,
    typeCycles: report.typeCycles,
    dynamicCycles: report.dynamicCycles,
    hubs: {
      fanIn: report.hubs.fanIn.map((h) => ({ path: h.file, count: h.count })),
      fanOut: report.hubs.fanOut.map((h) => ({ path: h.file, count: h.count })),
    },
    orphans: report.orphans.filter((o) => orphanCandidate(o) && !importedFromOutside.has(o)),
    entryPoints: [...entryPoints].sort(),
    nodes: kept.nodes,
    edges: kept.edges,
    ...(truncated ? { truncated } : {}),
  };
}

/** The drawn part of a big graph: files in cycles first, then the best-connected ones; edges among what is kept. */
function capGraph(nodes: GraphNodeReport[], edges: ReadonlyArray<GraphEdgeReport>, inCycles: string[]) {
  const unique = (list: ReadonlyArray<GraphEdgeReport>) => {
    const seen = new Set<string>();
    return list.filter((e) => {
      const k = `${e.from}\0${e.to}\0${e.kind}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  };
  if (nodes.length <= GRAPH_NODE_CAP) {
    const all = unique(edges);
    return { kept: { nodes, edges: all.slice(0, GRAPH_EDGE_CAP) }, truncated: all.length > GRAPH_EDGE_CAP };
  }
  const cyc = new Set(inCycles);
  const ranked = [...nodes].sort(
    (a, b) =>
      Number(cyc.has(b.id)) - Number(cyc.has(a.id)) ||
      b.fanIn + b.fanOut - (a.fanIn + a.fanOut) ||
      (a.id < b.id ? -1 : 1),
  );
  const keep = new Set(ranked.slice(0, GRAPH_NODE_CAP).map((n) => n.id));
  const keptEdges = unique(edges.filter((e) => keep.has(e.from) && keep.has(e.to)));
  return {
    kept: { nodes: nodes.filter((n) => keep.has(n.id)), edges: keptEdges.slice(0, GRAPH_EDGE_CAP) },
    truncated: true,
  };
}
