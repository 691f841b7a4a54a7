/**
 * The Manifest record every reader in manifests*.ts fills, and the helpers they fill it with:
 * own-key access to parsed documents (never Object.prototype's) and setters that drop
 * duplicates and empty lists.
 */
export type ManifestKind =
  'npm' | 'tsconfig' | 'deno' | 'cargo' | 'go' | 'python' | 'composer' | 'gem' | 'maven' | 'gradle';
export type DependencyScope = 'runtime' | 'dev' | 'peer' | 'optional' | 'build' | 'test';

export interface Dependency {
  name: string;
  /** The requirement as written (`^1.2.0`, `>=2,<3`, `v1.9.1`, `~> 7.0`), null when the manifest gives none. */
  version: string | null;
  scope: DependencyScope;
}

export interface Manifest {
  path: string;
  kind: ManifestKind;
  name: string | null;
  version: string | null;
  dependencies: Dependency[];
  /** npm scripts, deno tasks, composer scripts, Python console scripts (name -> module:function). */
  scripts?: Record<string, string>;
  /** npm main/module/browser/exports targets and bin; deno exports; cargo [lib] and [[bin]] paths; composer bin. */
  entryPoints?: string[];
  /** npm/yarn workspaces, deno workspace, cargo [workspace] members, maven modules (globs kept). */
  workspaces?: string[];
  /** tsconfig/jsconfig compilerOptions.paths; deno imports (each to one target); composer PSR-4/PSR-0 namespaces. */
  paths?: Record<string, string[]>;
  baseUrl?: string;
  /** tsconfig/jsconfig `extends`: the configs whose paths and baseUrl this one inherits. */
  extends?: string[];
  /** The go module path (go.mod `module`). */
  module?: string;
  /** What could not be read, e.g. `invalid JSON: …` or `line 12: …`. */
  errors: string[];
}

export type Obj = Record<string, unknown>;

/** `v` as an object with its own keys only (an array or scalar reads as empty). */
export function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

/** The own value at `key` (never Object.prototype's). */
export function get(o: Obj, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

export function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** A string, or the strings of an array. */
export function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

export function addDep(m: Manifest, name: string, version: string | null, scope: DependencyScope): void {
  const n = name.trim();
  if (!n || m.dependencies.some((d) => d.name === n && d.scope === scope)) return;
  m.dependencies.push({ name: n, version: version?.trim() || null, scope });
}

export function setList(m: Manifest, key: 'entryPoints' | 'workspaces' | 'extends', list: string[]): void {
  const unique = [
    ...new Set(list.map((p) => (key === 'entryPoints' ? p.replace(/^\.\/(?=.)/, '') : p)).filter(Boolean)),
  ];
  if (unique.length > 0) m[key] = unique;
}

export function setScripts(m: Manifest, entries: Array<[string, string]>): void {
  if (entries.length > 0) m.scripts = Object.fromEntries(entries); // fromEntries defines own properties, even for "__proto__"
}

export function setPaths(m: Manifest, entries: Array<[string, string[]]>): void {
  if (entries.length > 0) m.paths = Object.fromEntries(entries);
}
