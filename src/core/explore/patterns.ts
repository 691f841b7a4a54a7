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
 * The "Error handling" patterns are written by patterns-errors.ts, the "Naming" ones by
 * patterns-naming.ts, the others here.
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
import { FileScan, pick, portion, share, Tally } from './pattern-tally';
import { errorHandling } from './patterns-errors';
import { newJsClasses, scanJs } from './patterns-js';
import {
  collectPyClasses,
  goPackageNaming,
  type GoFolder,
  pythonModules,
  scanGo,
  scanPython,
  scanRust,
} from './patterns-langs';
import { naming } from './patterns-naming';
import { hasTestAttributes, importedJsFramework, scanTestFile } from './patterns-testing';
import type { Pattern } from './types';

export interface PatternOptions {
  /** Examples per pattern. Default 3. */
  maxExamples?: number;
  signal?: AbortSignal;
}

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
