/**
 * A repository's manifests as plain data: the dependencies, scripts, entry points, workspaces
 * and import aliases each declares, for explore's manifest analyzer (seed 003) and the import
 * graph's resolver (issue 17). Pure functions over a file's path and text, no I/O. A manifest
 * that cannot be read whole gives what could be read, and why the rest could not in `errors`:
 * parseManifest never throws.
 *   npm        package.json (dependencies by field, scripts, main/module/browser/exports/bin, workspaces)
 *   tsconfig   tsconfig.json, tsconfig.*.json, jsconfig.json (compilerOptions paths and baseUrl, extends)
 *   deno       deno.json, deno.jsonc (imports: as paths, and jsr:/npm:/URL ones as dependencies; tasks; exports)
 *   cargo      Cargo.toml ([*dependencies], [target.*.*dependencies], [workspace], [lib], [[bin]])
 *   go         go.mod (module, require lines and blocks)
 *   python     pyproject.toml ([project], [dependency-groups], [build-system], [tool.poetry]), requirements*.txt, setup.cfg
 *   composer   composer.json (require, require-dev, scripts, bin, autoload psr-4/psr-0 as paths)
 *   gem        Gemfile, gems.rb (gem lines, group blocks and group: options)
 *   maven      pom.xml (dependencies of the project and its profiles, ${property} versions, modules)
 *   gradle     build.gradle, build.gradle.kts (dependency configurations, string and map notation, libs.* catalog references)
 * Paths in entryPoints, workspaces and paths are as the manifest writes them (a leading "./"
 * dropped from entry points), relative to the manifest's folder.
 */
import {
  blankComments,
  child,
  children,
  readXml,
  stripJsonc,
  textOf,
  withoutRubyComment,
} from './manifest-text';
import { parseToml } from './toml';

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

const KIND_BY_NAME = new Map<string, ManifestKind>([
  ['package.json', 'npm'],
  ['tsconfig.json', 'tsconfig'],
  ['jsconfig.json', 'tsconfig'],
  ['deno.json', 'deno'],
  ['deno.jsonc', 'deno'],
  ['Cargo.toml', 'cargo'],
  ['go.mod', 'go'],
  ['pyproject.toml', 'python'],
  ['setup.cfg', 'python'],
  ['composer.json', 'composer'],
  ['Gemfile', 'gem'],
  ['gems.rb', 'gem'],
  ['pom.xml', 'maven'],
  ['build.gradle', 'gradle'],
  ['build.gradle.kts', 'gradle'],
]);

/** The kind of manifest a path names, by its file name; null for other files and anything under node_modules/ or vendor/. */
export function manifestKindOf(path: string): ManifestKind | null {
  const parts = path.split(/[\\/]/);
  if (parts.some((p) => p === 'node_modules' || p === 'vendor')) return null;
  const name = parts[parts.length - 1];
  const kind = KIND_BY_NAME.get(name);
  if (kind) return kind;
  if (/^[tj]sconfig\..+\.json$/.test(name)) return 'tsconfig';
  if (
    /^requirements.*\.txt$/i.test(name) ||
    (parts[parts.length - 2] === 'requirements' && name.endsWith('.txt'))
  )
    return 'python';
  return null;
}

/** The manifest at `path` read from its text; null when the path is not a manifest (manifestKindOf). */
export function parseManifest(path: string, text: string): Manifest | null {
  const kind = manifestKindOf(path);
  if (!kind) return null;
  const m: Manifest = { path, kind, name: null, version: null, dependencies: [], errors: [] };
  try {
    READERS[kind](m, text.replace(/^\uFEFF/, ''));
  } catch (e) {
    m.errors.push(`could not read the manifest: ${messageOf(e)}`); // a bug here, not the file's fault; keep what was read
  }
  return m;
}

const READERS: Record<ManifestKind, (m: Manifest, text: string) => void> = {
  npm: readNpm,
  tsconfig: readTsconfig,
  deno: readDeno,
  cargo: readCargo,
  go: readGoMod,
  python: readPython,
  composer: readComposer,
  gem: readGemfile,
  maven: readPom,
  gradle: readGradle,
};

// ---- shared helpers

type Obj = Record<string, unknown>;

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** `v` as an object with its own keys only (an array or scalar reads as empty). */
function obj(v: unknown): Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
}

/** The own value at `key` (never Object.prototype's). */
function get(o: Obj, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** A string, or the strings of an array. */
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function addDep(m: Manifest, name: string, version: string | null, scope: DependencyScope): void {
  const n = name.trim();
  if (!n || m.dependencies.some((d) => d.name === n && d.scope === scope)) return;
  m.dependencies.push({ name: n, version: version?.trim() || null, scope });
}

function setList(m: Manifest, key: 'entryPoints' | 'workspaces' | 'extends', list: string[]): void {
  const unique = [
    ...new Set(list.map((p) => (key === 'entryPoints' ? p.replace(/^\.\/(?=.)/, '') : p)).filter(Boolean)),
  ];
  if (unique.length > 0) m[key] = unique;
}

function setScripts(m: Manifest, entries: Array<[string, string]>): void {
  if (entries.length > 0) m.scripts = Object.fromEntries(entries); // fromEntries defines own properties, even for "__proto__"
}

function setPaths(m: Manifest, entries: Array<[string, string[]]>): void {
  if (entries.length > 0) m.paths = Object.fromEntries(entries);
}

/** Every string in a nested JSON value (npm `exports` conditions and subpaths), in document order. */
function leaves(v: unknown, depth = 0): string[] {
  if (typeof v === 'string') return [v];
  if (depth > 20 || typeof v !== 'object' || v === null) return [];
  return Object.values(v).flatMap((x) => leaves(x, depth + 1));
}

/** The top-level object of a JSON manifest; a strict one that is not plain JSON is still read leniently, with the error kept. */
function readJson(m: Manifest, text: string, lenient: boolean): Obj {
  let value: unknown;
  try {
    value = JSON.parse(lenient ? stripJsonc(text) : text);
  } catch (e) {
    m.errors.push(`invalid JSON: ${messageOf(e)}`);
    if (lenient) return {};
    try {
      value = JSON.parse(stripJsonc(text));
    } catch {
      return {};
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    m.errors.push('expected a JSON object');
    return {};
  }
  return value as Obj;
}

/** `{ "name": "version" }` maps (npm, composer) as dependencies. */
function addDepMap(m: Manifest, v: unknown, scope: DependencyScope): void {
  for (const [name, version] of Object.entries(obj(v))) addDep(m, name, str(version), scope);
}

// ---- JSON manifests

function readNpm(m: Manifest, text: string): void {
  const o = readJson(m, text, false);
  m.name = str(get(o, 'name'));
  m.version = str(get(o, 'version'));
  addDepMap(m, get(o, 'dependencies'), 'runtime');
  addDepMap(m, get(o, 'devDependencies'), 'dev');
  addDepMap(m, get(o, 'peerDependencies'), 'peer');
  addDepMap(m, get(o, 'optionalDependencies'), 'optional');
  setScripts(
    m,
    Object.entries(obj(get(o, 'scripts'))).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  const entries = [
    get(o, 'main'),
    get(o, 'module'),
    str(get(o, 'browser')),
    get(o, 'exports'),
    get(o, 'bin'),
  ].flatMap((v) => leaves(v));
  setList(m, 'entryPoints', entries);
  const workspaces = get(o, 'workspaces');
  setList(
    m,
    'workspaces',
    strings(Array.isArray(workspaces) ? workspaces : get(obj(workspaces), 'packages')),
  );
}

function readTsconfig(m: Manifest, text: string): void {
  const o = readJson(m, text, true);
  const options = obj(get(o, 'compilerOptions'));
  const baseUrl = str(get(options, 'baseUrl'));
  if (baseUrl !== null) m.baseUrl = baseUrl;
  setPaths(
    m,
    Object.entries(obj(get(options, 'paths'))).map(([alias, targets]): [string, string[]] => [
      alias,
      strings(targets),
    ]),
  );
  setList(m, 'extends', strings(get(o, 'extends')));
}

/** A deno import specifier as a package: `jsr:@std/assert@^1` and `npm:chalk@5` by name, URLs with an `@version` by host and path. */
function denoPackage(spec: string): { name: string; version: string | null } | null {
  const registry = /^(?:jsr|npm):\/?(@[^/@]+\/[^/@]+|[^/@]+)(?:@([^/]+))?/.exec(spec);
  if (registry) return { name: registry[1], version: registry[2] ?? null };
  const url = /^https?:\/\/(.+?\/@?[^@/]+)@([^/]+)/.exec(spec);
  if (url) return { name: url[1], version: url[2] };
  return /^https?:\/\//.test(spec) ? { name: spec.replace(/^https?:\/\//, ''), version: null } : null;
}

function readDeno(m: Manifest, text: string): void {
  const o = readJson(m, text, true);
  m.name = str(get(o, 'name'));
  m.version = str(get(o, 'version'));
  const imports = Object.entries(obj(get(o, 'imports'))).filter(
    (e): e is [string, string] => typeof e[1] === 'string',
  );
  setPaths(
    m,
    imports.map(([alias, target]) => [alias, [target]]),
  );
  for (const [, target] of imports) {
    const pkg = denoPackage(target);
    if (pkg) addDep(m, pkg.name, pkg.version, 'runtime');
  }
  const tasks = Object.entries(obj(get(o, 'tasks'))).map(([name, task]): [string, string | null] => [
    name,
    str(task) ?? str(get(obj(task), 'command')),
  ]);
  setScripts(
    m,
    tasks.filter((e): e is [string, string] => e[1] !== null),
  );
  setList(m, 'entryPoints', leaves(get(o, 'exports')));
  const workspace = get(o, 'workspace');
  setList(m, 'workspaces', strings(Array.isArray(workspace) ? workspace : get(obj(workspace), 'members')));
}

function readComposer(m: Manifest, text: string): void {
  const o = readJson(m, text, false);
  m.name = str(get(o, 'name'));
  m.version = str(get(o, 'version'));
  addDepMap(m, get(o, 'require'), 'runtime');
  addDepMap(m, get(o, 'require-dev'), 'dev');
  const scripts = Object.entries(obj(get(o, 'scripts'))).map(([name, run]): [string, string] => [
    name,
    strings(run).join(' && '),
  ]);
  setScripts(
    m,
    scripts.filter(([, run]) => run !== ''),
  );
  setList(m, 'entryPoints', strings(get(o, 'bin')));
  const namespaces = new Map<string, string[]>();
  for (const autoload of [get(o, 'autoload'), get(o, 'autoload-dev')])
    for (const standard of ['psr-4', 'psr-0'])
      for (const [ns, dirs] of Object.entries(obj(get(obj(autoload), standard))))
        namespaces.set(ns, [...(namespaces.get(ns) ?? []), ...strings(dirs)]);
  setPaths(m, [...namespaces]);
}

// ---- TOML manifests

/** The scope a named group of optional or grouped dependencies stands for. */
function groupScope(group: string, fallback: DependencyScope): DependencyScope {
  if (/^(tests?|testing)$/i.test(group)) return 'test';
  if (/^(dev|develop|development|lint|linting|typing|docs?)$/i.test(group)) return 'dev';
  return fallback;
}

const CARGO_TABLES: Array<[string, DependencyScope]> = [
  ['dependencies', 'runtime'],
  ['dev-dependencies', 'dev'],
  ['dev_dependencies', 'dev'],
  ['build-dependencies', 'build'],
  ['build_dependencies', 'build'],
];

function addCargoDeps(m: Manifest, owner: Obj): void {
  for (const [table, scope] of CARGO_TABLES)
    for (const [name, spec] of Object.entries(obj(get(owner, table)))) {
      const detail = obj(spec);
      addDep(
        m,
        name,
        str(spec) ?? str(get(detail, 'version')),
        scope === 'runtime' && get(detail, 'optional') === true ? 'optional' : scope,
      );
    }
}

function readCargo(m: Manifest, text: string): void {
  const { value: doc, errors } = parseToml(text);
  m.errors.push(...errors);
  const pkg = obj(get(doc, 'package'));
  m.name = str(get(pkg, 'name'));
  m.version = str(get(pkg, 'version'));
  addCargoDeps(m, doc);
  for (const target of Object.values(obj(get(doc, 'target')))) addCargoDeps(m, obj(target));
  const workspace = obj(get(doc, 'workspace'));
  addCargoDeps(m, workspace);
  setList(m, 'workspaces', strings(get(workspace, 'members')));
  const bins = Array.isArray(get(doc, 'bin')) ? (get(doc, 'bin') as unknown[]) : [];
  setList(
    m,
    'entryPoints',
    [get(obj(get(doc, 'lib')), 'path'), ...bins.map((bin) => get(obj(bin), 'path'))].flatMap(strings),
  );
}

/** A PEP 508 requirement (`requests[socks]>=2.8,<3 ; python_version<"3.8"`, `pkg @ https://…`) as name and version. */
export function pep508(requirement: string): { name: string; version: string | null } | null {
  const spec = requirement.split(';')[0].trim();
  const match = /^([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*(.*)$/.exec(spec);
  if (!match) return null;
  const rest = match[2].trim();
  if (rest.startsWith('@')) return { name: match[1], version: rest.slice(1).trim() || null };
  const version = rest.replace(/^\((.*)\)$/, '$1').replace(/\s+/g, '');
  if (version !== '' && !/^[<>=!~]/.test(version)) return null;
  return { name: match[1], version: version || null };
}

function addRequirements(m: Manifest, list: unknown, scope: DependencyScope, where: string): void {
  for (const requirement of strings(list)) {
    const dep = pep508(requirement);
    if (dep) addDep(m, dep.name, dep.version, scope);
    else m.errors.push(`${where}: cannot read the requirement "${requirement}"`);
  }
}

function readPyproject(m: Manifest, text: string): void {
  const { value: doc, errors } = parseToml(text);
  m.errors.push(...errors);
  const project = obj(get(doc, 'project'));
  const poetry = obj(get(obj(get(doc, 'tool')), 'poetry'));
  m.name = str(get(project, 'name')) ?? str(get(poetry, 'name'));
  m.version = str(get(project, 'version')) ?? str(get(poetry, 'version'));
  addRequirements(m, get(project, 'dependencies'), 'runtime', '[project] dependencies');
  for (const [group, list] of Object.entries(obj(get(project, 'optional-dependencies'))))
    addRequirements(m, list, groupScope(group, 'optional'), `[project.optional-dependencies] ${group}`);
  for (const [group, list] of Object.entries(obj(get(doc, 'dependency-groups'))))
    addRequirements(m, list, groupScope(group, 'dev'), `[dependency-groups] ${group}`);
  addRequirements(m, get(obj(get(doc, 'build-system')), 'requires'), 'build', '[build-system] requires');
  const poetryDeps = (table: unknown, scope: DependencyScope) => {
    for (const [name, spec] of Object.entries(obj(table))) {
      const detail = obj(Array.isArray(spec) ? spec[0] : spec);
      addDep(
        m,
        name,
        str(spec) ?? str(get(detail, 'version')),
        get(detail, 'optional') === true ? 'optional' : scope,
      );
    }
  };
  poetryDeps(get(poetry, 'dependencies'), 'runtime');
  poetryDeps(get(poetry, 'dev-dependencies'), 'dev');
  for (const [group, table] of Object.entries(obj(get(poetry, 'group'))))
    poetryDeps(get(obj(table), 'dependencies'), groupScope(group, 'dev'));
  const scripts = [get(project, 'scripts'), get(project, 'gui-scripts'), get(poetry, 'scripts')].flatMap(
    (table) =>
      Object.entries(obj(table)).map(([name, target]): [string, string | null] => [
        name,
        str(target) ?? str(get(obj(target), 'callable')),
      ]),
  );
  setScripts(
    m,
    scripts.filter((e): e is [string, string] => e[1] !== null),
  );
}

// ---- line-oriented manifests

function readPython(m: Manifest, text: string): void {
  const name = m.path.split(/[\\/]/).pop();
  if (name === 'pyproject.toml') readPyproject(m, text);
  else if (name === 'setup.cfg') readSetupCfg(m, text);
  else readRequirements(m, text);
}

/** requirements*.txt: one requirement a line; options (-r, -c, -e, --index-url) and local paths skipped, VCS URLs by their #egg= name. */
function readRequirements(m: Manifest, text: string): void {
  const file = (m.path.split(/[\\/]/).pop() ?? '').toLowerCase();
  const scope: DependencyScope = /(^|[^a-z])tests?([^a-z]|$)/.test(file)
    ? 'test'
    : /(^|[^a-z])(dev|develop|development|lint)([^a-z]|$)/.test(file)
      ? 'dev'
      : 'runtime';
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const number = i + 1;
    let line = lines[i];
    while (line.endsWith('\\') && i + 1 < lines.length) line = line.slice(0, -1) + ' ' + lines[++i];
    line = line
      .replace(/(^|\s)#.*$/, '')
      .replace(/\s--?[A-Za-z][\s\S]*$/, '')
      .trim();
    if (!line || line.startsWith('-')) continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(line) || /^[./~]/.test(line)) {
      const egg = /#egg=([A-Za-z0-9._-]+)/.exec(line);
      if (egg) addDep(m, egg[1], null, scope);
      continue;
    }
    const dep = pep508(line);
    if (dep) addDep(m, dep.name, dep.version, scope);
    else m.errors.push(`line ${number}: cannot read the requirement "${line}"`);
  }
}

/** setup.cfg (INI): [metadata] name and version, [options] *_requires, [options.extras_require], console_scripts. */
function readSetupCfg(m: Manifest, text: string): void {
  const sections = new Map<string, Map<string, string>>();
  let section: Map<string, string> | null = null;
  let key: string | null = null;
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    if (/^\s*([#;]|$)/.test(raw)) continue;
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = sections.get(header[1].trim()) ?? new Map<string, string>();
      sections.set(header[1].trim(), section);
      key = null;
    } else if (/^\s/.test(raw) && section && key !== null)
      section.set(key, `${section.get(key)}\n${raw.trim()}`);
    else {
      const entry = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(raw);
      if (entry && section) section.set((key = entry[1].trim()), entry[2].trim());
      else m.errors.push(`line ${i + 1}: cannot read "${raw.trim().slice(0, 60)}"`);
    }
  }
  const value = (s: string, k: string) => sections.get(s)?.get(k) ?? null;
  const requirements = (v: string | null) =>
    (v ?? '')
      .split('\n')
      .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
      .filter(Boolean);
  m.name = value('metadata', 'name');
  const version = value('metadata', 'version');
  m.version = version && !/^(attr|file):/.test(version) ? version : null;
  addRequirements(
    m,
    requirements(value('options', 'install_requires')),
    'runtime',
    '[options] install_requires',
  );
  addRequirements(m, requirements(value('options', 'tests_require')), 'test', '[options] tests_require');
  addRequirements(m, requirements(value('options', 'setup_requires')), 'build', '[options] setup_requires');
  for (const [group, list] of sections.get('options.extras_require') ?? [])
    addRequirements(
      m,
      requirements(list),
      groupScope(group, 'optional'),
      `[options.extras_require] ${group}`,
    );
  const scripts = requirements(value('options.entry_points', 'console_scripts')).map((l) =>
    /^([^=\s]+)\s*=\s*(.+)$/.exec(l),
  );
  setScripts(
    m,
    scripts.filter((s) => s !== null).map((s): [string, string] => [s[1], s[2]]),
  );
}

function readGoMod(m: Manifest, text: string): void {
  let block: string | null = null;
  const unquote = (s: string) => s.replace(/^["`](.*)["`]$/, '$1');
  const addRequire = (spec: string, line: number) => {
    const parts = spec.split(/\s+/);
    if (parts.length === 2) addDep(m, unquote(parts[0]), parts[1], 'runtime');
    else m.errors.push(`line ${line}: cannot read the requirement "${spec}"`);
  };
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const code = raw.replace(/\/\/.*$/, '').trim();
    if (!code) continue;
    if (block !== null) {
      if (code === ')') block = null;
      else if (block === 'require') addRequire(code, i + 1);
      continue;
    }
    const directive = /^(\w+)\s*(.*)$/.exec(code);
    if (!directive) {
      m.errors.push(`line ${i + 1}: cannot read "${code.slice(0, 60)}"`);
    } else if (directive[2] === '(') block = directive[1];
    else if (directive[1] === 'module') m.name = m.module = unquote(directive[2]);
    else if (directive[1] === 'require') addRequire(directive[2], i + 1);
  }
  if (block !== null) m.errors.push(`unterminated ${block} ( block`);
}

/** Gemfile groups as a scope: test alone is test, development (with or without test) dev, others runtime. */
function gemGroupScope(groups: string): DependencyScope {
  const names = new Set(groups.match(/\w+/g) ?? []);
  if (names.has('development')) return 'dev';
  return names.has('test') ? 'test' : 'runtime';
}

function readGemfile(m: Manifest, text: string): void {
  const blocks: Array<DependencyScope | null> = []; // a group's scope, or null for other do/if blocks
  for (const raw of text.split(/\r?\n/)) {
    const code = withoutRubyComment(raw).trim();
    if (!code) continue;
    if (/^end\b/.test(code)) {
      blocks.pop();
      continue;
    }
    const gem = /^gem\s*\(?\s*(['"])([^'"]+)\1(.*)$/.exec(code);
    if (gem) {
      const versions: string[] = [];
      let rest = gem[3];
      for (let v = /^\s*,\s*(['"])([^'"]*)\1/.exec(rest); v; v = /^\s*,\s*(['"])([^'"]*)\1/.exec(rest)) {
        versions.push(v[2]);
        rest = rest.slice(v[0].length);
      }
      const group = /(?:\bgroups?:|:groups?\s*=>)\s*(\[[^\]]*\]|:?\w+|['"]\w+['"])/.exec(rest);
      const scope = group ? gemGroupScope(group[1]) : (blocks.findLast((b) => b !== null) ?? 'runtime');
      addDep(m, gem[2], versions.length > 0 ? versions.join(', ') : null, scope);
      if (/\bdo\s*(\|[^|]*\|)?$/.test(code)) blocks.push(null);
      continue;
    }
    const group = /^group\s*\(?(.*?)\)?\s*do\s*(\|[^|]*\|)?$/.exec(code);
    if (group) blocks.push(gemGroupScope(group[1]));
    else if (
      /\bdo\s*(\|[^|]*\|)?$/.test(code) ||
      /^(if|unless|case|while|until|begin|def|class|module)\b/.test(code)
    )
      blocks.push(null);
  }
}

// ---- JVM manifests

const MAVEN_SCOPES: Record<string, DependencyScope> = {
  compile: 'runtime',
  runtime: 'runtime',
  system: 'runtime',
  provided: 'build',
  test: 'test',
};

function readPom(m: Manifest, text: string): void {
  const project = child(readXml(text, m.errors), 'project');
  if (!project) {
    m.errors.push('no <project> element');
    return;
  }
  const parent = child(project, 'parent');
  const groupId = textOf(project, 'groupId') ?? textOf(parent, 'groupId');
  const artifactId = textOf(project, 'artifactId');
  const version = textOf(project, 'version') ?? textOf(parent, 'version');
  const properties = new Map(
    (child(project, 'properties')?.children ?? []).map((p) => [p.name, p.text.trim()]),
  );
  for (const [k, v] of [
    ['project.groupId', groupId],
    ['project.artifactId', artifactId],
    ['project.version', version],
  ])
    if (k && v) properties.set(k, v);
  const resolve = (v: string | null) =>
    v?.replace(/\$\{([^}]+)\}/g, (ref, k: string) => properties.get(k) ?? ref) ?? null;
  m.name = artifactId ? (groupId ? `${groupId}:${artifactId}` : artifactId) : null;
  m.version = resolve(version);
  const lists = [
    child(project, 'dependencies'),
    ...children(child(project, 'profiles'), 'profile').map((p) => child(p, 'dependencies')),
  ];
  for (const dep of lists.flatMap((list) => children(list, 'dependency'))) {
    const [g, a] = [resolve(textOf(dep, 'groupId')), resolve(textOf(dep, 'artifactId'))];
    if (!a) {
      m.errors.push('a <dependency> without an <artifactId>');
      continue;
    }
    const scope = MAVEN_SCOPES[textOf(dep, 'scope') ?? 'compile'] ?? 'runtime';
    addDep(
      m,
      g ? `${g}:${a}` : a,
      resolve(textOf(dep, 'version')),
      textOf(dep, 'optional') === 'true' && scope === 'runtime' ? 'optional' : scope,
    );
  }
  setList(
    m,
    'workspaces',
    children(child(project, 'modules'), 'module').map((mod) => mod.text.trim()),
  );
}

const GRADLE_CONFIGURATIONS =
  'implementation|api|compileOnly|compileOnlyApi|runtimeOnly|compile|runtime|providedCompile|developmentOnly|annotationProcessor|kapt|ksp|classpath|' +
  '(?:test|androidTest|testFixtures|debug|release)(?:Implementation|Api|CompileOnly|RuntimeOnly|Compile|Runtime|AnnotationProcessor)';
const Q = `(['"])([^'"\\n]*)`; // an opening quote and a string's text; each use is closed by its own backreference
const GRADLE_DEPENDENCY = new RegExp(
  `\\b(${GRADLE_CONFIGURATIONS})\\b\\s*\\(?\\s*(?:(?:platform|enforcedPlatform)\\s*\\(\\s*)?` +
    `(?:${Q}\\2|group\\s*[:=]\\s*${Q}\\4\\s*,\\s*name\\s*[:=]\\s*${Q}\\6(?:\\s*,\\s*version\\s*[:=]\\s*${Q}\\8)?|(libs(?:\\.\\w+)+))`,
  'g',
);

function gradleScope(configuration: string): DependencyScope {
  if (/^(test|androidTest)/.test(configuration)) return 'test';
  if (
    /^(compileOnly|compileOnlyApi|providedCompile|annotationProcessor|kapt|ksp|classpath)$/.test(
      configuration,
    )
  )
    return 'build';
  return configuration === 'developmentOnly' ? 'dev' : 'runtime';
}

function readGradle(m: Manifest, text: string): void {
  const code = blankComments(text, `"'`);
  m.version = /^\s*version\s*=?\s*['"]([^'"\n]+)['"]/m.exec(code)?.[1] ?? null;
  for (const match of code.matchAll(GRADLE_DEPENDENCY)) {
    const [, configuration, , coordinates, , group, , name, , version, catalog] = match;
    const scope = gradleScope(configuration);
    if (catalog) addDep(m, catalog, null, scope);
    else if (group !== undefined) addDep(m, `${group}:${name}`, version ?? null, scope);
    else {
      const [g, a, v] = coordinates.split(':');
      if (a === undefined) continue; // files("…"), a plugin id: not a module coordinate
      addDep(m, `${g}:${a}`, v?.replace(/@.*$/, '') ?? null, scope);
    }
  }
}
