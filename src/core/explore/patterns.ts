/**
 * explore's pattern analyzer (seed 003, the pattern agent): the conventions a codebase follows,
 * counted from its code so that new code can follow them. Cheap by design: one pass over each
 * file's lines with comments blanked (pattern-scan.ts), keyword checks before any regex, no
 * regex that can backtrack badly, lines over 1,000 characters (minified code) skipped.
 *
 * Each Pattern is named "<Category>: <aspect>", the category one of the seed's six:
 *   Module structure   module system, exports, barrel files, Python packages, Go packages
 *   Error handling     throw sites, try/catch, promise .catch(), Result type, Python raise,
 *                      bare except, Go error checks, Go error wrapping, Rust ? operator
 *   Type conventions   interface vs type, any, enums vs unions, Python type hints
 *   Import style       specifiers, type-only imports, extensions, node: prefix, Python imports,
 *                      Go import grouping
 *   Naming             <language> file names, JS/TS functions, Python functions, JS/TS
 *                      constants, Python constants
 *   Testing            <framework> (one per framework found), placement
 * and its description is a counted statement, "throws custom Error subclasses (QuarryError):
 * 41 of 52 throw sites (built-in errors: 8, rethrows: 3)", with `count` and `total` the two
 * numbers and up to maxExamples lines as examples. A pattern is reported only when something
 * was counted for it, in the order above; "Type conventions: any" and "Error handling: bare
 * except" may count 0 (of the TypeScript files, of the except clauses): none is a convention too.
 */
import { QuarryError } from '../errors';
import {
  baseName,
  dirName,
  isEcmascript,
  isTestData,
  isTestFile,
  isVendored,
  langOf,
  type Lang,
  normalizePath,
  plural,
  testFolderOf,
  thousands,
} from './conventions';
import { codeLines, commentStyleOf } from './pattern-scan';
import { type Choice, FileScan, portion, share, Tally } from './pattern-tally';
import { identifierStyle, type JsClasses, newJsClasses, scanJs, throwKinds } from './patterns-js';
import {
  collectPyClasses,
  goPackageNaming,
  type GoFolder,
  PYTHON_BUILTIN_EXCEPTIONS,
  pythonExceptionClasses,
  pythonModules,
  scanGo,
  scanPython,
  scanRust,
} from './patterns-langs';
import { hasTestAttributes, importedJsFramework, scanTestFile } from './patterns-testing';
import type { Evidence, Pattern } from './types';

export interface PatternOptions {
  /** Examples per pattern. Default 3. */
  maxExamples?: number;
  signal?: AbortSignal;
}

const GROUP: Record<Lang, string> = {
  ts: 'JS/TS',
  js: 'JS/TS',
  python: 'Python',
  go: 'Go',
  rust: 'Rust',
  c: 'C/C++',
  cpp: 'C/C++',
  java: 'Java',
  kotlin: 'Kotlin',
  csharp: 'C#',
  swift: 'Swift',
  ruby: 'Ruby',
  php: 'PHP',
  shell: 'shell',
};

/** The conventions of a set of source files, as counted patterns (empty when nothing was counted). */
export function detectPatterns(
  files: ReadonlyArray<{ path: string; text: string }>,
  options: PatternOptions = {},
): Pattern[] {
  const maxExamples =
    options.maxExamples === undefined || Number.isNaN(options.maxExamples)
      ? 3
      : Math.max(0, Math.floor(options.maxExamples));
  const tally = new Tally(maxExamples);
  const list: Array<{ path: string; text: string; lang: Lang }> = [];
  const seen = new Set<string>();
  for (const f of Array.isArray(files) ? files : []) {
    if (!f || typeof f.path !== 'string' || typeof f.text !== 'string') continue;
    const path = normalizePath(f.path);
    const lang = langOf(path);
    if (lang === null || isVendored(path) || isTestData(path) || seen.has(path)) continue;
    seen.add(path);
    list.push({ path, text: f.text, lang });
  }
  const paths = list.map((f) => f.path);
  const jsClasses = newJsClasses();
  const pyClasses = new Map<string, string[]>();
  const goFolders = new Map<string, GoFolder>();
  const pyLocal = pythonModules(paths);
  const byPath = new Map(list.map((f) => [f.path, f]));
  const moduleFrameworks = new Map<string, string | null>();
  /** The test framework a module of the list imports (`./fixtures` from e2e/a.spec.ts), read once. */
  const frameworkOfModule = (from: string, specifier: string): string | null => {
    const target = resolveRelative(dirName(from), specifier, byPath);
    if (target === null) return null;
    if (!moduleFrameworks.has(target)) {
      const f = byPath.get(target)!;
      moduleFrameworks.set(
        target,
        importedJsFramework(codeLines(f.text.split(/\r?\n/, 400), 'c'))?.name ?? null,
      );
    }
    return moduleFrameworks.get(target) ?? null;
  };
  let jsFiles = 0;
  let tsFiles = 0;
  let goFiles = 0;
  let testFiles = 0;
  for (let n = 0; n < list.length; n++) {
    if (n % 32 === 0 && options.signal?.aborted) throw cancelled(options.signal);
    const { path, text, lang } = list[n];
    const raw = text.includes('\r') ? text.split(/\r?\n/) : text.split('\n');
    const code = codeLines(raw, commentStyleOf(lang));
    const scan = new FileScan(tally, path, raw, code);
    const test = isTestFile(path);
    if (isEcmascript(lang)) {
      const ts = lang === 'ts';
      jsFiles++;
      if (ts) tsFiles++;
      scanJs(scan, jsClasses, { ts, index: /^index\.[cm]?[jt]sx?$/.test(baseName(path)) });
    } else if (lang === 'python') {
      collectPyClasses(code, pyClasses);
      scanPython(scan, pyLocal);
    } else if (lang === 'go') {
      goFiles++;
      scanGo(scan, goFolders);
    } else if (lang === 'rust' && !test) scanRust(scan);
    if (test || hasTestAttributes(lang, text)) {
      testFiles++;
      scanTestFile(scan, lang, frameworkOfModule);
    }
  }
  const counts = { jsFiles, tsFiles, goFiles, testFiles };
  const out = [
    ...moduleStructure(tally, paths, goFolders),
    ...errorHandling(tally, jsClasses, pyClasses, counts),
    ...typeConventions(tally, counts),
    ...importStyle(tally),
    ...naming(tally, paths),
    ...testing(tally, paths, testFiles),
  ];
  return out.filter((p): p is Pattern => p !== null);
}

/** A relative JS/TS specifier as a path of the list (with TypeScript's extensions and index files), or null. */
function resolveRelative(dir: string, specifier: string, files: Map<string, { lang: Lang }>): string | null {
  const parts = dir === '' ? [] : dir.split('/');
  for (const part of specifier.split('/')) {
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else if (part !== '.' && part !== '') parts.push(part);
  }
  const base = parts.join('/');
  const stem = base.replace(/\.[cm]?js$/, '');
  for (const candidate of [
    base,
    ...['.ts', '.tsx', '.js', '.mjs', '.mts', '.jsx'].map((e) => stem + e),
    ...['ts', 'tsx', 'js'].map((e) => `${base}/index.${e}`),
  ]) {
    const f = files.get(candidate);
    if (f && isEcmascript(f.lang)) return candidate;
  }
  return null;
}

function cancelled(signal: AbortSignal): Error {
  return signal.reason instanceof Error
    ? signal.reason
    : new QuarryError('Cancelled', 'The pattern analysis was cancelled');
}

/** A choice read from the tally by key. */
function pick(tally: Tally, key: string, statement: string, label: string): Choice {
  return { statement, label, count: tally.count(key), examples: tally.examples(key) };
}

/** Examples from several keys, the most counted first, up to the tally's limit. */
function examplesOf(tally: Tally, keys: string[]): Evidence[] {
  return keys
    .slice()
    .sort((a, b) => tally.count(b) - tally.count(a))
    .flatMap((k) => tally.examples(k))
    .slice(0, tally.maxExamples);
}

/** Several keys as one choice; `names` listed in the statement, most counted first. */
function group(tally: Tally, prefix: string, names: string[], statement: string, label: string): Choice {
  const keys = names.map((n) => prefix + n);
  const sorted = names.slice().sort((a, b) => tally.count(prefix + b) - tally.count(prefix + a));
  const shown =
    sorted.length > 0 ? ` (${sorted.slice(0, 3).join(', ')}${sorted.length > 3 ? ', …' : ''})` : '';
  return {
    statement: statement + shown,
    label,
    count: keys.reduce((sum, k) => sum + tally.count(k), 0),
    examples: examplesOf(tally, keys),
  };
}

// ---- Module structure

function moduleStructure(
  tally: Tally,
  paths: string[],
  goFolders: Map<string, GoFolder>,
): Array<Pattern | null> {
  const out: Array<Pattern | null> = [
    share(
      'Module structure: module system',
      [
        pick(tally, 'js.mod.esm', 'ES modules (import/export)', 'ES modules'),
        pick(tally, 'js.mod.cjs', 'CommonJS (require/module.exports)', 'CommonJS'),
        pick(tally, 'js.mod.both', 'both ES modules and CommonJS', 'both'),
      ],
      'JS/TS files with imports or exports',
    ),
    share(
      'Module structure: exports',
      [
        pick(tally, 'js.exp.named', 'named exports only', 'named only'),
        pick(tally, 'js.exp.default', 'modules with a default export', 'with a default export'),
      ],
      'JS/TS modules with exports',
    ),
  ];
  if (tally.count('js.barrel') > 0)
    out.push(
      portion(
        'Module structure: barrel files',
        'barrel index files (re-exports only)',
        tally.count('js.barrel'),
        tally.count('js.index'),
        'index files',
        tally.examples('js.barrel'),
      ),
    );
  // Python folders (below the root) holding modules, and which of them are packages with an __init__.py
  const pathSet = new Set(paths);
  const pyDirs = new Set(paths.filter((p) => p.endsWith('.py') && dirName(p) !== '').map(dirName));
  const packages = [...pyDirs].filter((d) => pathSet.has(`${d}/__init__.py`)).sort();
  out.push(
    portion(
      'Module structure: Python packages',
      'packages with __init__.py',
      packages.length,
      pyDirs.size,
      'folders with Python modules',
      packages.slice(0, tally.maxExamples).map((d) => ({ path: `${d}/__init__.py` })),
    ),
  );
  const go = goPackageNaming(goFolders);
  out.push(
    share(
      'Module structure: Go packages',
      [
        {
          statement: 'packages named after their folder',
          label: 'named after the folder',
          count: go.matches,
          examples: go.examples.slice(0, tally.maxExamples),
        },
        { statement: 'main packages', label: 'main', count: go.main, examples: [] },
        {
          statement: 'packages named unlike their folder',
          label: 'named otherwise',
          count: go.differs,
          examples: [],
        },
      ],
      'Go folders',
    ),
  );
  return out;
}

// ---- Error handling

function errorHandling(
  tally: Tally,
  jsClasses: JsClasses,
  pyClasses: Map<string, string[]>,
  counts: { jsFiles: number; goFiles: number },
): Array<Pattern | null> {
  const kinds = throwKinds(tally, jsClasses);
  const t = 'js.throw.new:';
  const out: Array<Pattern | null> = [
    share(
      'Error handling: throw sites',
      [
        group(tally, t, kinds.custom, 'throws custom Error subclasses', 'custom errors'),
        group(tally, t, kinds.builtin, 'throws built-in errors', 'built-in errors'),
        group(tally, t, kinds.imported, 'throws imported error classes', 'imported classes'),
        group(tally, t, kinds.plain, 'throws instances of non-Error classes', 'non-Error classes'),
        pick(tally, 'js.throw.rethrow', 'rethrows caught values', 'rethrows'),
        pick(tally, 'js.throw.factory', 'throws what a function returns', 'error factories'),
        pick(tally, 'js.throw.value', 'throws non-Error values (strings, objects)', 'non-Error values'),
        pick(tally, 'js.throw.other', 'throws other expressions', 'other'),
      ],
      'throw sites',
    ),
  ];
  if (tally.count('js.try') > 0)
    out.push(
      portion(
        'Error handling: try/catch',
        `files with try/catch (${plural(tally.count('js.try'), 'block')})`,
        tally.count('js.try.files'),
        counts.jsFiles,
        'JS/TS files',
        tally.examples('js.try'),
      ),
    );
  if (tally.count('js.catch') > 0)
    out.push(
      portion(
        'Error handling: promise .catch()',
        `files with promise .catch() (${plural(tally.count('js.catch'), 'call')})`,
        tally.count('js.catch.files'),
        counts.jsFiles,
        'JS/TS files',
        tally.examples('js.catch'),
      ),
    );
  if (tally.count('js.result') > 0)
    out.push(
      portion(
        'Error handling: Result type',
        `files using a Result type (Result<…>, Ok(), Err(): ${plural(tally.count('js.result'), 'site')})`,
        tally.count('js.result.files'),
        counts.jsFiles,
        'JS/TS files',
        tally.examples('js.result'),
      ),
    );
  const custom = pythonExceptionClasses(pyClasses);
  const raised = tally.withPrefix('py.raise.class:').map((r) => r.rest);
  out.push(
    share(
      'Error handling: Python raise',
      [
        group(
          tally,
          'py.raise.class:',
          raised.filter((c) => custom.has(c)),
          'raises custom exceptions',
          'custom exceptions',
        ),
        group(
          tally,
          'py.raise.class:',
          raised.filter((c) => !custom.has(c) && PYTHON_BUILTIN_EXCEPTIONS.has(c)),
          'raises built-in exceptions',
          'built-in exceptions',
        ),
        group(
          tally,
          'py.raise.class:',
          raised.filter((c) => !custom.has(c) && !PYTHON_BUILTIN_EXCEPTIONS.has(c)),
          'raises imported exceptions',
          'imported exceptions',
        ),
        pick(tally, 'py.raise.bare', 're-raises with a bare raise', 'bare raise'),
        pick(tally, 'py.raise.rethrow', 'raises a caught exception object', 'exception objects'),
        pick(tally, 'py.raise.factory', 'raises what a function returns', 'factories'),
        pick(tally, 'py.raise.other', 'raises other expressions', 'other'),
      ],
      'raise sites',
    ),
  );
  const excepts = tally.count('py.except.bare') + tally.count('py.except.typed');
  out.push(
    portion(
      'Error handling: bare except',
      'bare except: clauses',
      tally.count('py.except.bare'),
      excepts,
      'except clauses',
      tally.examples('py.except.bare'),
    ),
  );
  if (tally.count('go.errcheck') > 0)
    out.push(
      portion(
        'Error handling: Go error checks',
        `files with if err != nil checks (${plural(tally.count('go.errcheck'), 'check')})`,
        tally.count('go.errcheck.files'),
        counts.goFiles,
        'Go files',
        tally.examples('go.errcheck'),
      ),
    );
  out.push(
    share(
      'Error handling: Go error wrapping',
      [
        pick(tally, 'go.err.wrap', 'wraps errors with fmt.Errorf("…%w") or errors.Wrap', '%w wrapping'),
        pick(tally, 'go.err.new', 'creates errors with errors.New', 'errors.New'),
        pick(tally, 'go.err.errorf', 'formats errors with fmt.Errorf without %w', 'fmt.Errorf without %w'),
      ],
      'error constructions',
    ),
    share(
      'Error handling: Rust ? operator',
      [
        pick(tally, 'rs.question', 'propagates errors with the ? operator', '?'),
        pick(tally, 'rs.unwrap', 'calls .unwrap()', 'unwrap()'),
        pick(tally, 'rs.expect', 'calls .expect()', 'expect()'),
      ],
      'error-handling sites outside tests',
    ),
  );
  return out;
}

// ---- Type conventions

function typeConventions(tally: Tally, counts: { tsFiles: number }): Array<Pattern | null> {
  const anyFiles = tally.count('ts.any.files');
  return [
    share(
      'Type conventions: interface vs type',
      [
        pick(tally, 'ts.interface', 'object types declared as interface', 'interfaces'),
        pick(tally, 'ts.objectAlias', 'object types declared as type X = { … }', 'type aliases'),
      ],
      'object type declarations',
    ),
    portion(
      'Type conventions: any',
      anyFiles > 0
        ? `files with an explicit any (${plural(tally.count('ts.any'), 'site')})`
        : 'files with an explicit any',
      anyFiles,
      counts.tsFiles,
      'TypeScript files',
      tally.examples('ts.any'),
    ),
    share(
      'Type conventions: enums vs unions',
      [
        pick(tally, 'ts.literalUnion', 'string-literal union types', 'string-literal unions'),
        pick(tally, 'ts.enum', 'enums', 'enums'),
      ],
      'enumerated types',
    ),
    share(
      'Type conventions: Python type hints',
      [
        pick(tally, 'py.def.hinted', 'functions with type hints', 'with hints'),
        pick(tally, 'py.def.plain', 'functions without type hints', 'without hints'),
      ],
      'Python functions',
    ),
  ];
}

// ---- Import style

function importStyle(tally: Tally): Array<Pattern | null> {
  const out: Array<Pattern | null> = [
    share(
      'Import style: specifiers',
      [
        pick(tally, 'js.spec.relative', 'relative imports', 'relative'),
        pick(tally, 'js.spec.package', 'package imports', 'packages'),
        pick(tally, 'js.spec.alias', 'alias imports (@/, ~/, #)', 'aliases'),
        pick(tally, 'js.spec.builtin', 'Node builtin imports', 'Node builtins'),
      ],
      'JS/TS import specifiers',
    ),
  ];
  const type = tally.count('ts.import.type');
  const inline = tally.count('ts.import.inline');
  if (type + inline > 0) {
    const extra = inline > 0 ? `; inline type specifiers in ${thousands(inline)} more` : '';
    const examples = type > 0 ? tally.examples('ts.import.type') : tally.examples('ts.import.inline');
    out.push(
      portion(
        'Import style: type-only imports',
        'type-only imports (import type)',
        type,
        tally.count('ts.import'),
        'TypeScript import statements',
        examples,
        extra,
      ),
    );
  }
  const exts = tally
    .withPrefix('js.rel.ext:')
    .sort((a, b) => b.count - a.count)
    .map((e) => e.rest);
  out.push(
    share(
      'Import style: extensions',
      [
        {
          statement: `relative imports with an explicit extension${exts.length > 0 ? ` (${exts.slice(0, 3).join(', ')})` : ''}`,
          label: 'with an extension',
          count: tally.count('js.rel.ext'),
          examples: tally.examples('js.rel.ext'),
        },
        pick(tally, 'js.rel.noext', 'relative imports without an extension', 'without'),
      ],
      'relative imports of code',
    ),
    share(
      'Import style: node: prefix',
      [
        pick(tally, 'js.builtin.prefixed', 'Node builtins imported with the node: prefix', 'node:'),
        pick(tally, 'js.builtin.bare', 'Node builtins imported by bare name', 'bare name'),
      ],
      'Node builtin imports',
    ),
    share(
      'Import style: Python imports',
      [
        pick(tally, 'py.import.relative', "relative imports of the project's modules", 'relative'),
        pick(tally, 'py.import.absolute', "absolute imports of the project's modules", 'absolute'),
      ],
      "imports of the project's own modules",
    ),
    share(
      'Import style: Go import grouping',
      [
        pick(tally, 'go.imports.grouped', 'standard library imports grouped apart', 'grouped'),
        pick(tally, 'go.imports.mixed', 'standard library and module imports in one group', 'mixed'),
      ],
      'Go files importing both',
    ),
  );
  return out;
}

// ---- Naming

const FILE_STYLES: Array<[string, string]> = [
  ['kebab', 'kebab-case'],
  ['snake', 'snake_case'],
  ['camel', 'camelCase'],
  ['pascal', 'PascalCase'],
  ['upper', 'UPPER_CASE'],
  ['other', 'mixed'],
];

/** A file name's style from its stem (before the first dot; a test prefix or suffix and leading underscores dropped). */
export function fileNameStyle(path: string, lang: Lang): string | null {
  const name = baseName(path);
  if (name.startsWith('.')) return null;
  let stem = name.slice(0, name.indexOf('.') > 0 ? name.indexOf('.') : name.length);
  if (/^__\w+__$/.test(stem)) return null;
  if (lang === 'python') stem = stem.replace(/^test_/, '').replace(/_test$/, '');
  if (lang === 'go') stem = stem.replace(/_test$/, '');
  stem = stem.replace(/^_+/, '');
  if (stem === '') return null;
  if (/^[a-z0-9]+(?:-[a-z0-9]+)+$/.test(stem)) return 'kebab';
  const style = identifierStyle(stem);
  return style === 'single' ? 'single' : style;
}

function naming(tally: Tally, paths: string[]): Array<Pattern | null> {
  const byGroup = new Map<string, Map<string, string[]>>();
  for (const path of paths) {
    const lang = langOf(path);
    if (lang === null) continue;
    const style = fileNameStyle(path, lang);
    if (style === null) continue;
    const g = GROUP[lang];
    const styles = byGroup.get(g) ?? new Map<string, string[]>();
    styles.set(style, [...(styles.get(style) ?? []), path].slice(0, Math.max(tally.maxExamples, 1)));
    tally.add(`name.${g}.${style}`);
    byGroup.set(g, styles);
  }
  const out: Array<Pattern | null> = [];
  for (const [g, styles] of [...byGroup].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    const single = tally.count(`name.${g}.single`);
    const choices = FILE_STYLES.map(([style, label]) => ({
      statement: `${label} file names`,
      label,
      count: tally.count(`name.${g}.${style}`),
      examples: (styles.get(style) ?? []).slice(0, tally.maxExamples).map((path) => ({ path })),
    }));
    out.push(
      share(
        `Naming: ${g} file names`,
        choices,
        `multi-word ${g} file names`,
        single > 0 ? `; ${plural(single, 'one-word name')}` : '',
      ),
    );
  }
  const fnChoices = (prefix: string): Choice[] => [
    pick(tally, `${prefix}.camel`, 'camelCase function names', 'camelCase'),
    pick(tally, `${prefix}.snake`, 'snake_case function names', 'snake_case'),
    pick(tally, `${prefix}.pascal`, 'PascalCase function names', 'PascalCase'),
  ];
  out.push(
    share('Naming: JS/TS functions', fnChoices('js.fn'), 'multi-word JS/TS function names'),
    share('Naming: Python functions', fnChoices('py.fn'), 'multi-word Python function names'),
    share(
      'Naming: JS/TS constants',
      [
        pick(tally, 'js.const.upper', 'UPPER_SNAKE_CASE for top-level literal constants', 'UPPER_SNAKE_CASE'),
        pick(tally, 'js.const.other', 'camelCase for top-level literal constants', 'camelCase'),
      ],
      'top-level constants bound to a literal',
    ),
    share(
      'Naming: Python constants',
      [
        pick(
          tally,
          'py.const.upper',
          'UPPER_SNAKE_CASE for module-level literal constants',
          'UPPER_SNAKE_CASE',
        ),
        pick(tally, 'py.const.other', 'lower-case names for module-level literal constants', 'lower case'),
      ],
      'module-level names bound to a literal',
    ),
  );
  return out;
}

// ---- Testing

function testing(tally: Tally, paths: string[], testFiles: number): Array<Pattern | null> {
  const frameworks = tally
    .withPrefix('test.fw:')
    .sort((a, b) => b.count - a.count || (a.rest < b.rest ? -1 : 1));
  const out: Array<Pattern | null> = frameworks.map(({ key, rest, count }) => {
    const cases = tally.count(`test.cases:${rest}`);
    return portion(
      `Testing: ${rest}`,
      rest,
      count,
      testFiles,
      'test files',
      tally.examples(key),
      cases > 0 ? `, ${plural(cases, 'test case')}` : '',
    );
  });
  const tests = paths.filter(isTestFile);
  const colocated = tests.filter((p) => testFolderOf(p) === null);
  const inFolders = tests.filter((p) => testFolderOf(p) !== null);
  const ex = (list: string[]) => list.slice(0, tally.maxExamples).map((path) => ({ path }));
  out.push(
    share(
      'Testing: placement',
      [
        {
          statement: 'test files next to the source',
          label: 'next to the source',
          count: colocated.length,
          examples: ex(colocated),
        },
        {
          statement: 'test files in test folders (tests/, __tests__/, ...)',
          label: 'in test folders',
          count: inFolders.length,
          examples: ex(inFolders),
        },
      ],
      'test files',
    ),
  );
  return out;
}
