/**
 * explore (seed 003): the report's shape. The seed's fields keep their names and types (some
 * are strings: `dependencies`, `focus_findings`, `summary`); each string has a structured twin
 * (`dependencies_detail`, `focus_findings_detail`, ...) so a program need not parse prose.
 * Every statement carries evidence a reader can open: a path, and a line where there is one.
 */
import type { Manifest } from '../analyze/manifests';

export type ExploreDepth = 'shallow' | 'standard' | 'deep';

/** The seed's six agents, run as concurrent analyzers. */
export type AnalyzerName = 'tree' | 'manifests' | 'patterns' | 'focus' | 'imports' | 'git';

export interface Evidence {
  /** Workspace path. */
  path: string;
  /** 1-based line, when the evidence is a line. */
  line?: number;
  /** The line's text (trimmed, at most 200 characters). */
  text?: string;
}

export interface KeyFile {
  path: string;
  /** What the file is for: "README", "entry point (package.json main)", "CI workflow", ... and the file's own first doc comment when it has one. */
  role: string;
  /** The convention or field that gave the role ("package.json main", "file name", "doc comment"). */
  source?: string;
}

export interface Pattern {
  name: string;
  /** A counted statement, e.g. "throws custom Error subclasses: 41 of 52 throw sites". */
  description: string;
  examples: Evidence[];
  /** The counts behind the description (the sites that follow the pattern, out of `total`). */
  count?: number;
  total?: number;
}

export interface DependencyEntry {
  name: string;
  version: string;
  scope: string;
}

export interface ManifestSummary {
  path: string;
  kind: Manifest['kind'];
  name?: string;
  version?: string;
  dependencies: DependencyEntry[];
  scripts: Record<string, string>;
  entryPoints: string[];
  workspaces: string[];
  /** Import aliases (tsconfig/jsconfig `paths`, deno.json imports). */
  paths: Record<string, string[]>;
  errors: string[];
}

export interface FocusHit {
  path: string;
  startLine: number;
  endLine: number;
  symbol: string;
  score: number;
  /** The hit's first lines. */
  snippet: string;
}

export interface GraphNodeReport {
  id: string;
  /** A file of the workspace, or an external package (a leaf). */
  kind: 'file' | 'external';
  fanIn: number;
  fanOut: number;
}

export interface GraphEdgeReport {
  from: string;
  to: string;
  kind: 'static' | 'type' | 'dynamic';
  /** The importing line. */
  line: number;
}

export interface CycleReport {
  /** The files of the strongly connected component. */
  files: string[];
  /** One shortest cycle through it, first file repeated at the end: the evidence. */
  path: string[];
}

export interface ImportGraphReport {
  files: number;
  /** Import edges between files of the workspace. */
  internalEdges: number;
  /** External packages imported (leaf nodes). */
  externals: number;
  unresolved: Array<{ from: string; specifier: string; line: number }>;
  /** Runtime (static) cycles. */
  cycles: CycleReport[];
  /** Cycles that exist only through type-only imports (no runtime effect). */
  typeCycles: CycleReport[];
  /** Cycles that need a dynamic import() edge (no load-order problem). */
  dynamicCycles: CycleReport[];
  hubs: { fanIn: Array<{ path: string; count: number }>; fanOut: Array<{ path: string; count: number }> };
  /** Files nothing imports that are not entry points (nor tests, configs, scripts). */
  orphans: string[];
  entryPoints: string[];
  nodes: GraphNodeReport[];
  edges: GraphEdgeReport[];
  /** Nodes and edges were capped: the drawn graph is a part. */
  truncated?: boolean;
}

export interface GitReport {
  available: boolean;
  reason?: string;
  branch?: string | null;
  head?: string | null;
  commits?: Array<{ oid: string; author: string; date: string; message: string; files: number }>;
  uncommitted?: Array<{ path: string; status: string }>;
  /** Most changed files over the commits read (churn). */
  hotFiles?: Array<{ path: string; commits: number }>;
  authors?: Array<{ name: string; commits: number }>;
  shallow?: boolean;
}

export type AnalyzerStatus = 'ok' | 'error' | 'timeout' | 'cancelled';

export interface AnalyzerRun {
  name: AnalyzerName;
  status: AnalyzerStatus;
  ms: number;
  error?: string;
}

export interface ExploreResult {
  path: string;
  depth: ExploreDepth;
  focus?: string;
  tree: string;
  key_files: KeyFile[];
  patterns: Pattern[];
  dependencies: string;
  dependencies_detail: ManifestSummary[];
  focus_findings: string;
  focus_findings_detail: FocusHit[];
  summary: string;
  /** deep */
  import_graph?: ImportGraphReport;
  /** deep */
  git_history?: string;
  git_history_detail?: GitReport;
  /** Each analyzer: how it ended and how long it took. One that failed has `error`; the rest of the report still stands. */
  analyzers: AnalyzerRun[];
  /** The analyzers that failed or ran out of time, as the seed reports a failed agent. */
  errors: Array<{ analyzer: AnalyzerName; message: string }>;
  /** Files the walk read for the report (after the walk policy). */
  files_scanned: number;
}
