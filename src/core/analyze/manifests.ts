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
 * dropped from entry points), relative to the manifest's folder. Python's readers are in
 * manifests-python.ts, Maven's and Gradle's in manifests-jvm.ts, the Manifest record and its
 * setters in manifest-record.ts.
 */
import {
  addDep,
  get,
  obj,
  setList,
  setPaths,
  setScripts,
  str,
  strings,
  type DependencyScope,
  type Manifest,
  type ManifestKind,
  type Obj,
} from './manifest-record';
import { parseJsonc, withoutRubyComment } from './manifest-text';
import { readGradle, readPom } from './manifests-jvm';
import { readPython } from './manifests-python';
import { parseToml } from './toml';

export type { Dependency, DependencyScope, Manifest, ManifestKind } from './manifest-record';
export { pep508 } from './manifests-python';

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
  const parts = path.split('/'); // a backslash is part of a POSIX name (`back\package.json` is no manifest)
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

// ---- JSON manifests

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Every string in a nested JSON value (npm `exports` conditions and subpaths), in document order. */
function leaves(v: unknown, depth = 0): string[] {
  if (typeof v === 'string') return [v];
  if (depth > 20 || typeof v !== 'object' || v === null) return [];
  return Object.values(v).flatMap((x) => leaves(x, depth + 1));
}

/** The top-level object of a JSON manifest; a strict one that is not plain JSON is still read as JSONC, with the error kept. */
function readJson(m: Manifest, text: string, lenient: boolean): Obj {
  let read: { value: unknown } | { error: string };
  if (lenient) read = parseJsonc(text);
  else
    try {
      read = { value: JSON.parse(text) };
    } catch (e) {
      m.errors.push(`invalid JSON: ${messageOf(e)}`);
      read = parseJsonc(text);
      if ('error' in read) return {};
    }
  if ('error' in read) {
    m.errors.push(`invalid JSON: ${read.error}`);
    return {};
  }
  const value = read.value;
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

// ---- Cargo.toml

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

// ---- line-oriented manifests

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
