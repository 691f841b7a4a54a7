/** Python manifests for manifests.ts: pyproject.toml ([project], [dependency-groups], [build-system], [tool.poetry]), requirements*.txt and setup.cfg. */
import {
  addDep,
  get,
  obj,
  setScripts,
  str,
  strings,
  type DependencyScope,
  type Manifest,
} from './manifest-record';
import { parseToml } from './toml';

export function readPython(m: Manifest, text: string): void {
  const name = m.path.split('/').pop();
  if (name === 'pyproject.toml') readPyproject(m, text);
  else if (name === 'setup.cfg') readSetupCfg(m, text);
  else readRequirements(m, text);
}

/** The scope a named group of optional or grouped dependencies stands for. */
function groupScope(group: string, fallback: DependencyScope): DependencyScope {
  if (/^(tests?|testing)$/i.test(group)) return 'test';
  if (/^(dev|develop|development|lint|linting|typing|docs?)$/i.test(group)) return 'dev';
  return fallback;
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

/** requirements*.txt: one requirement a line; options (-r, -c, -e, --index-url) and local paths skipped, VCS URLs by their #egg= name. */
function readRequirements(m: Manifest, text: string): void {
  const file = (m.path.split('/').pop() ?? '').toLowerCase();
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
