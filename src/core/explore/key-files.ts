/**
 * explore's key files (seed 003, the tree agent): the files a newcomer should open first, each
 * with its role by the conventions of its ecosystem (key-file-rules.ts) and, where the file has
 * one, the first sentence of its own doc comment ("entry point (package.json main) — Parses the
 * CLI flags and starts the server."). Found:
 *   README, license, contribution guide, changelog, security policy, code owners   by name
 *   manifests       every kind parseManifest reads, with name, version and counts
 *   entry points    the manifests' own (main/module/exports/bin, deno exports, Cargo [lib]/[[bin]]),
 *                   resolved from build output to the source in the list (dist/index.js -> src/index.ts),
 *                   and each ecosystem's conventional names at a project root (index.ts, main.go,
 *                   cmd/x/main.go, src/main.rs, __main__.py, Program.cs, a Java class with main, ...)
 *   configs, CI     by name (tsconfig, bundlers, linters, Docker, Make, workflows, ...)
 *   tests           test configs, and test files summarized as one entry per test folder
 * Texts are optional: without one a file keeps its role but not its description (and a Java
 * class or main.go cannot be checked for `main`); a manifest's text, from the file list or
 * given with the manifest, tells which field names each entry point (main, bin, exports).
 * A project root is the common folder of the paths or a manifest's folder. Files under
 * node_modules/ and test data (fixtures/, testdata/) are not key files. Each category gets a
 * share of `max` before the earlier ones take the rest, so a monorepo's forty READMEs do not
 * crowd out its entry points. Pure and total: odd input gives fewer key files, never a throw.
 */
import { parseJsonc } from '../analyze/manifest-text';
import { type Manifest, manifestKindOf, parseManifest } from '../analyze/manifests';
import { isTomlTable, parseToml } from '../analyze/toml';
import {
  baseName,
  dirName,
  isTestData,
  isTestFile,
  isVendored,
  normalizePath,
  plural,
  testFolderOf,
} from './conventions';
import { docSummary } from './doc-comments';
import {
  BUILD_FOLDERS,
  Category,
  CI_RULES,
  CONFIG_RULES,
  DOC_RULES,
  ENTRY_RULES,
  type NameRule,
} from './key-file-rules';
import { naturalCompare } from './tree';
import type { KeyFile } from './types';

export interface KeyFileOptions {
  /** At most this many key files. Default 40. */
  max?: number;
}

interface Candidate {
  path: string;
  role: string;
  source: string;
  category: Category;
  /** Within a category: lower first (an entry point a manifest names before a conventional one). */
  priority: number;
  /** Then lower first (a test folder with more files first). */
  order: number;
  /** Append the file's own doc comment to the role. */
  describe: boolean;
}

/** The key files of a file list, README first, then manifests, entry points, configs, CI, tests and the rest. */
export function keyFiles(
  files: ReadonlyArray<{ path: string; text?: string }>,
  manifests: ReadonlyArray<{ path: string; manifest: Manifest; text?: string }>,
  options: KeyFileOptions = {},
): KeyFile[] {
  const max =
    options.max === undefined || Number.isNaN(options.max) ? 40 : Math.max(0, Math.floor(options.max));
  const texts = new Map<string, string | undefined>();
  for (const f of Array.isArray(files) ? files : []) {
    if (!f || typeof f.path !== 'string') continue;
    const path = normalizePath(f.path);
    if (path === '' || path.endsWith('/') || /(^|\/)\.\.(\/|$)/.test(path) || isVendored(path)) continue;
    texts.set(path, typeof f.text === 'string' ? f.text : texts.get(path));
  }
  const found = new Map<string, Candidate>();
  const add = (c: Candidate) => {
    const old = found.get(c.path);
    if (!old || compare(c, old) < 0) found.set(c.path, c);
  };
  const parsed = readManifests(texts, manifests);
  const roots = projectRoots(texts, parsed);
  for (const [path, manifest] of parsed) add(manifestCandidate(path, manifest));
  for (const [path, manifest] of parsed)
    if (manifest) for (const c of manifestEntries(path, manifest, texts)) add(c);
  const tests: string[] = [];
  for (const path of texts.keys()) {
    const test = isTestFile(path);
    if (test) tests.push(path);
    if (!isTestData(path)) for (const c of byName(path, test, roots, texts)) add(c);
  }
  for (const c of testFolders(tests, roots)) add(c);
  const sorted = [...found.values()].sort(compare);
  return select(sorted, max).map((c) => ({
    path: c.path,
    role: describe(c, texts.get(c.path)),
    source: c.source,
  }));
}

function compare(a: Candidate, b: Candidate): number {
  return (
    a.category - b.category ||
    a.priority - b.priority ||
    a.order - b.order ||
    depth(a.path) - depth(b.path) ||
    naturalCompare(a.path, b.path)
  );
}

const depth = (path: string) => path.split('/').length - (path.endsWith('/') ? 1 : 0);

/** Each category's first share, then the rest in order, up to max; returned in report order. */
function select(sorted: Candidate[], max: number): Candidate[] {
  const quota = Math.max(2, Math.floor(max / 5));
  const chosen = new Set<Candidate>();
  const taken = new Map<Category, number>();
  for (const c of sorted) {
    if (chosen.size >= max) break;
    const n = taken.get(c.category) ?? 0;
    if (n < quota) {
      chosen.add(c);
      taken.set(c.category, n + 1);
    }
  }
  for (const c of sorted) {
    if (chosen.size >= max) break;
    chosen.add(c);
  }
  return sorted.filter((c) => chosen.has(c));
}

/** The role with the file's own description: its doc comment, a workflow's name and triggers, a license's title. */
function describe(c: Candidate, text: string | undefined): string {
  if (!c.describe || text === undefined) return c.role;
  let summary: string | null;
  try {
    if (c.category === Category.CI && /workflows\//.test(c.path)) summary = workflowSummary(text);
    else if (c.role.startsWith('license')) summary = firstLine(text);
    else summary = docSummary(c.path, text);
  } catch {
    summary = null; // a description is a bonus: never a reason to fail
  }
  return summary ? `${c.role} — ${summary}` : c.role;
}

function firstLine(text: string): string | null {
  const line = text
    .split(/\r?\n/, 20)
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find((l) => l !== '');
  return line ? (line.length > 80 ? `${line.slice(0, 79)}…` : line) : null;
}

/** A GitHub Actions workflow's `name:` and its `on:` triggers: "CI (on push, pull_request)". */
export function workflowSummary(text: string): string | null {
  const lines = text.split(/\r?\n/, 500);
  const unquote = (s: string) =>
    s
      .replace(/\s+#.*$/, '')
      .trim()
      .replace(/^(['"])(.*)\1$/, '$2')
      .trim();
  const nameLine = lines.find((l) => /^name:\s*\S/.test(l));
  const name = nameLine ? unquote(nameLine.slice(nameLine.indexOf(':') + 1)) : null;
  const triggers: string[] = [];
  const on = lines.findIndex((l) => /^(on|"on"|'on'):/.test(l));
  if (on >= 0) {
    const inline = unquote(lines[on].slice(lines[on].indexOf(':') + 1));
    if (inline !== '')
      triggers.push(
        ...inline
          .replace(/^\[|\]$/g, '')
          .split(',')
          .map(unquote)
          .filter(Boolean),
      );
    else {
      let indent: string | null = null;
      for (let i = on + 1; i < lines.length; i++) {
        const line = lines[i];
        if (line.trim() === '' || line.trim().startsWith('#')) continue;
        const key = /^(\s+)(?:- )?([\w-]+)\s*:?/.exec(line);
        if (!key) break;
        indent ??= key[1];
        if (key[1] === indent) triggers.push(key[2]);
      }
    }
  }
  const on_ = triggers.length > 0 ? `on ${triggers.slice(0, 6).join(', ')}` : null;
  if (name && on_) return `${name} (${on_})`;
  return name || on_;
}

// ---- manifests

/** The manifests given, and any other manifest in the list (read from its text when there is one, else null). */
function readManifests(
  texts: Map<string, string | undefined>,
  given: ReadonlyArray<{ path: string; manifest: Manifest; text?: string }>,
): Map<string, Manifest | null> {
  const out = new Map<string, Manifest | null>();
  for (const g of Array.isArray(given) ? given : []) {
    if (!g || typeof g.path !== 'string' || !g.manifest || typeof g.manifest !== 'object') continue;
    const path = normalizePath(g.path);
    if (isVendored(path) || isTestData(path)) continue;
    out.set(path, g.manifest);
    if (typeof g.text === 'string' && texts.get(path) === undefined) texts.set(path, g.text); // for the fields its entry points come from
  }
  for (const [path, text] of texts) {
    if (out.has(path) || isTestData(path) || manifestKindOf(path) === null) continue;
    out.set(path, text === undefined ? null : parseManifest(path, text));
  }
  return out;
}

const MANIFEST_LABEL: Record<Manifest['kind'], string> = {
  npm: 'npm manifest',
  tsconfig: 'TypeScript config',
  deno: 'Deno config',
  cargo: 'Cargo manifest',
  go: 'Go module',
  python: 'Python project',
  composer: 'Composer manifest',
  gem: 'Gemfile',
  maven: 'Maven POM',
  gradle: 'Gradle build',
};

function manifestLabel(path: string, kind: Manifest['kind']): string {
  const name = baseName(path);
  if (kind === 'tsconfig') return name.startsWith('jsconfig') ? 'JavaScript config' : 'TypeScript config';
  if (kind === 'python' && name.endsWith('.txt')) return 'Python requirements';
  if (kind === 'python' && name === 'setup.cfg') return 'Python setup.cfg';
  return MANIFEST_LABEL[kind] ?? 'manifest';
}

function manifestCandidate(path: string, m: Manifest | null): Candidate {
  const kind = m?.kind ?? manifestKindOf(path) ?? 'npm';
  const label = manifestLabel(path, kind);
  const details: string[] = [];
  if (m && kind === 'tsconfig') {
    if (m.extends?.length) details.push(`extends ${m.extends.join(', ')}`);
    const aliases = Object.keys(m.paths ?? {}).length;
    if (aliases > 0) details.push(plural(aliases, 'path alias', 'path aliases'));
  } else if (m) {
    const id = [m.name, m.version].filter((s) => typeof s === 'string' && s !== '').join(' ');
    if (id) details.push(id);
    const deps = Array.isArray(m.dependencies) ? m.dependencies.length : 0;
    details.push(plural(deps, 'dependency', 'dependencies'));
    const scripts = Object.keys(m.scripts ?? {}).length;
    if (scripts > 0) details.push(plural(scripts, 'script'));
    if (m.workspaces?.length) details.push(plural(m.workspaces.length, 'workspace'));
    if (m.errors?.length) details.push(plural(m.errors.length, 'read error'));
  }
  return {
    path,
    role: details.length > 0 ? `${label}: ${details.join(', ')}` : label,
    source: 'file name',
    category: kind === 'tsconfig' ? Category.Config : Category.Manifest,
    priority: 0,
    order: 0,
    describe: false,
  };
}

/** Which field of its manifest names each entry point ("main", "exports", "bin", "[lib]"), read from the manifest's text when there is one. */
function entryFields(m: Manifest, text: string | undefined): Map<string, string> {
  const fields = new Map<string, string>();
  const put = (field: string, v: unknown, depth = 0) => {
    if (typeof v === 'string') {
      const target = v.replace(/^\.\/(?=.)/, '');
      if (!fields.has(target)) fields.set(target, field);
    } else if (v && typeof v === 'object' && depth < 20)
      for (const x of Object.values(v)) put(field, x, depth + 1);
  };
  if (text === undefined) return fields;
  try {
    if (m.kind === 'npm' || m.kind === 'deno' || m.kind === 'composer') {
      const read = m.kind === 'deno' ? parseJsonc(text) : { value: JSON.parse(text) as unknown };
      const o = 'value' in read ? read.value : null;
      if (!o || typeof o !== 'object') return fields;
      const json = o as Record<string, unknown>;
      for (const field of ['main', 'module', 'browser', 'exports', 'bin'])
        if (Object.hasOwn(json, field)) put(field, json[field]);
    } else if (m.kind === 'cargo') {
      const doc = parseToml(text).value;
      const lib = doc.lib;
      if (isTomlTable(lib)) put('[lib]', lib.path);
      if (Array.isArray(doc.bin)) for (const bin of doc.bin) if (isTomlTable(bin)) put('[[bin]]', bin.path);
    }
  } catch {
    // an unreadable manifest: its entry points are still listed, without the field
  }
  return fields;
}

function manifestEntries(path: string, m: Manifest, texts: Map<string, string | undefined>): Candidate[] {
  if (!Array.isArray(m.entryPoints) || m.kind === 'tsconfig') return [];
  const fields = entryFields(m, texts.get(path));
  const manifestName = baseName(path);
  const out: Candidate[] = [];
  m.entryPoints.forEach((target, i) => {
    if (typeof target !== 'string') return;
    const resolved = resolveEntry(dirName(path), target, texts);
    if (!resolved) return;
    const field = fields.get(target.replace(/^\.\/(?=.)/, ''));
    const source = field ? `${manifestName} ${field}` : manifestName;
    out.push({
      path: resolved,
      role: `entry point (${source})`,
      source,
      category: Category.Entry,
      priority: 0,
      order: i,
      describe: true,
    });
  });
  return out;
}

const BUILT_EXTENSION = /\.(d\.[cm]?ts|[cm]?js|jsx)$/;
const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/**
 * A manifest-relative entry point as a file of the list: the path itself, else its source (a
 * built `.js`/`.d.ts` as `.ts`/`.tsx`, a build folder such as dist/ as src/ or as the package
 * folder), else, for a path without extension, its file or index file. Null when none is listed.
 */
export function resolveEntry(
  manifestDir: string,
  target: string,
  files: { has(path: string): boolean },
): string | null {
  if (/[*?]|^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) return null;
  const base = manifestDir === '' ? [] : manifestDir.split('/');
  const parts = [...base];
  for (const part of target.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  if (parts.length === 0) return null;
  const inside = parts.length > base.length && base.every((p, i) => parts[i] === p);
  const variants = [parts];
  // dist/esm/index.js -> src/esm/index.js, esm/index.js, src/index.js, index.js (relative to the manifest)
  for (let rest = inside ? parts.slice(base.length) : []; rest.length > 1 && BUILD_FOLDERS.has(rest[0]);) {
    rest = rest.slice(1);
    variants.push([...base, 'src', ...rest], [...base, ...rest]);
  }
  for (const v of variants)
    for (const candidate of sourcesOf(v.join('/'))) if (files.has(candidate)) return candidate;
  return null;
}

function sourcesOf(path: string): string[] {
  const out = [path];
  const built = BUILT_EXTENSION.exec(path);
  if (built) out.push(...SOURCE_EXTENSIONS.map((ext) => path.slice(0, built.index) + ext));
  else if (!/\.[\w]+$/.test(baseName(path)))
    out.push(
      ...SOURCE_EXTENSIONS.map((ext) => path + ext),
      ...SOURCE_EXTENSIONS.map((ext) => `${path}/index${ext}`),
    );
  return out;
}

// ---- roots and conventions

/** The common folder of all paths ('' or 'a/b/') and the folder of every manifest but tsconfig. */
function projectRoots(
  texts: Map<string, string | undefined>,
  manifests: Map<string, Manifest | null>,
): Set<string> {
  let common: string[] | null = null;
  for (const path of texts.keys()) {
    const dirs = path.split('/').slice(0, -1);
    if (common === null) common = dirs;
    else {
      let k = 0;
      while (k < common.length && k < dirs.length && common[k] === dirs[k]) k++;
      common.length = k;
    }
    if (common.length === 0) break;
  }
  const roots = new Set<string>([common && common.length > 0 ? `${common.join('/')}/` : '']);
  for (const [path, m] of manifests)
    if ((m?.kind ?? manifestKindOf(path)) !== 'tsconfig')
      roots.add(dirName(path) === '' ? '' : `${dirName(path)}/`);
  return roots;
}

/** The roots a path is under, deepest first. */
function rootsOf(path: string, roots: Set<string>): string[] {
  const out: string[] = [];
  for (let dir = dirName(path); ; dir = dirName(dir)) {
    if (roots.has(dir === '' ? '' : `${dir}/`)) out.push(dir === '' ? '' : `${dir}/`);
    if (dir === '') return out;
  }
}

/** Base names that may be a conventional entry point (ENTRY_RULES), checked first to keep the scan cheap. */
const ENTRY_NAME =
  /^(main|index|mod|App|__main__|manage|wsgi|asgi|app|lib|Program|\w*Application|Main)\.\w+$|\.rs$/;

function byName(
  path: string,
  test: boolean,
  roots: Set<string>,
  texts: Map<string, string | undefined>,
): Candidate[] {
  const name = baseName(path);
  const out: Candidate[] = [];
  const candidate = (rule: NameRule, source: string): Candidate => ({
    path,
    role: rule.role,
    source,
    category: rule.category,
    priority: 0,
    order: 0,
    describe: true,
  });
  const dir = dirName(path);
  // a README anywhere (it describes its folder); the other documents at a project root, in .github/ or docs/
  const atDocPlace = roots.has(dir === '' ? '' : `${dir}/`) || /(^|\/)(\.github|docs?)$/.test(dir);
  for (const rule of DOC_RULES)
    if ((atDocPlace || rule.category === Category.Readme) && rule.test.test(name))
      out.push(candidate(rule, 'file name'));
  for (const rule of CONFIG_RULES) if (rule.test.test(name)) out.push(candidate(rule, 'file name'));
  for (const rule of CI_RULES) if (rule.test.test(path)) out.push(candidate(rule, 'file path'));
  if (test || !ENTRY_NAME.test(name)) return out;
  const under = rootsOf(path, roots);
  for (const rule of ENTRY_RULES) {
    const places = rule.place === 'anywhere' ? [''] : under;
    for (const root of places) {
      const m = rule.test.exec(path.slice(root.length));
      if (!m) continue;
      if (rule.needs && !rule.needs.test(texts.get(path) ?? '')) continue;
      out.push({
        path,
        role: rule.role(m),
        source: 'naming convention',
        category: Category.Entry,
        priority: 1,
        order: 0,
        describe: true,
      });
      break;
    }
  }
  return out;
}

/**
 * Test files as one entry per folder: a test folder (`tests/`, `__tests__/`, ...) by itself;
 * tests next to the source grouped by the first folder under their project root (`src/`).
 */
function testFolders(tests: string[], roots: Set<string>): Candidate[] {
  const groups = new Map<string, { files: number; colocated: boolean; names: Map<string, number> }>();
  for (const path of tests) {
    const folder = testFolderOf(path);
    let key = folder;
    if (key === null) {
      const root = rootsOf(path, roots)[0] ?? '';
      const rest = path.slice(root.length).split('/');
      key = rest.length > 1 ? `${root}${rest[0]}/` : root || './';
    }
    const group = groups.get(key) ?? {
      files: 0,
      colocated: folder === null,
      names: new Map<string, number>(),
    };
    group.files++;
    const naming = testNaming(baseName(path));
    if (naming) group.names.set(naming, (group.names.get(naming) ?? 0) + 1);
    groups.set(key, group);
  }
  return [...groups].map(([path, g]) => {
    const names = [...g.names].sort((a, b) => b[1] - a[1] || naturalCompare(a[0], b[0])).map(([n]) => n);
    const naming = names.length > 0 ? ` (${names.slice(0, 2).join(', ')})` : '';
    return {
      path,
      role: `tests: ${plural(g.files, 'test file')}${g.colocated ? ' next to the source' : ''}${naming}`,
      source: g.colocated ? 'test file naming' : 'test folder',
      category: Category.Tests,
      priority: 1,
      order: -g.files,
      describe: false,
    };
  });
}

/** The naming convention a test file follows, as a glob ("*.test.ts", "test_*.py"), or null. */
function testNaming(name: string): string | null {
  const suffix = /\.(test|spec)\.([cm]?[jt]sx?)$/.exec(name);
  if (suffix) return `*.${suffix[1]}.${suffix[2]}`;
  if (/^test_.+\.py$/.test(name)) return 'test_*.py';
  const underscore = /_(test|spec)\.(\w+)$/.exec(name);
  if (underscore) return `*_${underscore[1]}.${underscore[2]}`;
  const jvm = /(Tests?)\.(java|kt|cs|swift)$/.exec(name);
  return jvm ? `*${jvm[1]}.${jvm[2]}` : null;
}
