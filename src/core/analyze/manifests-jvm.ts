/** JVM manifests for manifests.ts: pom.xml (dependencies of the project and its profiles, ${property} versions, modules) and build.gradle(.kts). */
import { addDep, setList, type DependencyScope, type Manifest } from './manifest-record';
import { blankComments, child, children, readXml, textOf } from './manifest-text';

const MAVEN_SCOPES: Record<string, DependencyScope> = {
  compile: 'runtime',
  runtime: 'runtime',
  system: 'runtime',
  provided: 'build',
  test: 'test',
};

export function readPom(m: Manifest, text: string): void {
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

export function readGradle(m: Manifest, text: string): void {
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
