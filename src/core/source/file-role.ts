/**
 * What a file is for, read from its path by each ecosystem's conventions: the one "file role"
 * rule that ranking (rank/people.ts, rank/related-people.ts, text results) and the explore
 * analyzers (explore/conventions.ts re-exports the test and vendor rules) share.
 *
 * THE RULE, first match wins:
 *   vendored   under node_modules/, bower_components/, vendor(s)/, third_party/ (third-party,
 *              thirdparty), .git/, .hg/, .svn/ (GitHub linguist's vendored folders, in part)
 *   generated  a minified build (`.min.js`, `.min.css`), a source map, a lockfile, protobuf or
 *              other generator output (chunk/generated.ts names them), or under dist/ or
 *              __generated__/
 *   snapshot   under __snapshots__/ or a `.snap` file (Jest, Vitest)
 *   fixture    under a test-data folder: fixtures*, __fixtures__, testdata, __mocks__, snapshots
 *   test       a test file by name (`a.test.ts`, `a.spec.js`, `test_a.py`, `a_test.go`,
 *              `a_spec.rb`, `ATest.java`) or source code under a test folder (test, tests,
 *              __tests__, spec, specs, e2e, cypress, integration-tests, testing)
 *   locale     a translation: `.po`, `.pot`, `.xlf`, `.xliff`, `.arb`, `.strings`, `.resx`, or
 *              a data file (or a file named like a locale, `en.js`, `pt-BR.ts`) under a locale
 *              folder (locale(s), i18n, l10n, lang(s), translations, messages)
 *   changelog  CHANGELOG, CHANGES, HISTORY, NEWS, RELEASE(S)/RELEASE_NOTES, any extension; or
 *              under RelNotes/, release-notes/, changelogs/, .changeset/
 *   example    under examples/, example/, demo(s)/, samples/
 *   docs       prose: `.md`, `.mdx`, `.rst`, `.adoc`, `.txt`, README, or any non-code file
 *              under doc/ or docs/
 *   config     configuration data: `.json` (and jsonc/json5), `.yaml`, `.toml`, `.ini`,
 *              `.properties`, `.env`, and `*.config.{js,ts,mjs,cjs}`, `*rc` files
 *   source     everything else
 * A "barrel" (a file that only re-exports other modules) is a role the path cannot tell:
 * rankers read it from the file's chunks (isBarrelText below, over the indexed text).
 * Folder names are matched whole, case-sensitively except where noted; names of files too.
 */
import { extensionTable, type Lang } from './languages';
import { baseName, extensionOf as rawExtension } from './types';

export type FileRole =
  | 'source'
  | 'test'
  | 'snapshot'
  | 'fixture'
  | 'locale'
  | 'generated'
  | 'vendored'
  | 'changelog'
  | 'docs'
  | 'config'
  | 'example';

export const FILE_ROLES: readonly FileRole[] = [
  'source',
  'test',
  'snapshot',
  'fixture',
  'locale',
  'generated',
  'vendored',
  'changelog',
  'docs',
  'config',
  'example',
];

export type { Lang };

/** The language families of source/languages.ts, by extension. */
const LANG_BY_EXTENSION: Readonly<Record<string, Lang>> = extensionTable((info) => info.family);

/** The final extension, lower-cased, without the dot ('' when none). */
export function extensionOf(path: string): string {
  return rawExtension(path).toLowerCase();
}

/** The language family of a source file by its extension, or null. */
export function langOf(path: string): Lang | null {
  const ext = extensionOf(path);
  return Object.hasOwn(LANG_BY_EXTENSION, ext) ? LANG_BY_EXTENSION[ext] : null;
}

const VENDORED_IN_PATH = /(^|\/)(node_modules|bower_components|vendors?|third[-_]?party|\.git|\.hg|\.svn)\//;
const GENERATED_IN_PATH = /(^|\/)(dist|__generated__)\//;
const GENERATED_NAME =
  /\.min\.(js|css|mjs)$|\.(js|css|mjs)\.map$|^(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|deno\.lock|Cargo\.lock|poetry\.lock|Pipfile\.lock|composer\.lock|Gemfile\.lock|go\.sum|uv\.lock)$|\.pb\.(go|cc|h|swift)$|_pb2(_grpc)?\.pyi?$|_(grpc_)?pb\.(js|ts|d\.ts)$|\.(g|freezed)\.dart$|\.Designer\.cs$|\.g\.(i\.)?cs$/;
const SNAPSHOT = /(^|\/)__snapshots__\/|\.snap$/;
/** Folders under a test folder that hold data, not tests. */
export const DATA_FOLDERS: ReadonlySet<string> = new Set([
  'fixtures',
  '__fixtures__',
  'testdata',
  '__snapshots__',
  '__mocks__',
  'snapshots',
  'data',
]);
const DATA_FOLDER_IN_PATH =
  /(^|\/)(fixtures[\w-]*|__fixtures__|testdata|__snapshots__|__mocks__|snapshots)\//;
/** Folder names that hold tests. */
export const TEST_FOLDERS: ReadonlySet<string> = new Set([
  'test',
  'tests',
  '__tests__',
  'spec',
  'specs',
  'e2e',
  'cypress',
  'integration-tests',
  'testing',
]);
const TEST_FOLDER_IN_PATH = /(^|\/)(test|tests|__tests__|spec|specs|e2e|cypress|integration-tests|testing)\//;
const LOCALE_EXTENSIONS = /\.(po|pot|xlf|xliff|arb|strings|resx)$/i;
const LOCALE_FOLDER = /(^|\/)(locales?|i18n|l10n|langs?|translations?|messages)\//i;
const LOCALE_DATA = /\.(json|json5|ya?ml|toml|properties|ini)$/i;
const LOCALE_NAME = /^[a-z]{2,3}([-_][A-Za-z]{2,4})?\.[a-z]+$/;
const CHANGELOG_NAME = /^(change[-_]?log|changes|history|news|releases?|release[-_]?notes)(\.[\w.-]+)?$/i;
const CHANGELOG_FOLDER = /(^|\/)(RelNotes|release[-_]?notes|changelogs?|\.changeset)\//i;
const EXAMPLE_FOLDER = /(^|\/)(examples?|demos?|samples?)\//;
const DOC_EXTENSIONS = /\.(md|mdx|markdown|rst|adoc|txt)$/i;
const DOC_FOLDER = /(^|\/)docs?\//;
const CONFIG_EXTENSIONS = /\.(json|jsonc|json5|ya?ml|toml|ini|cfg|properties|env)$/i;
const CONFIG_NAME = /\.config\.[cm]?[jt]s$|^\.[\w-]+rc(\.[\w]+)?$|^\.env(\.|$)/;

/** Folders no analyzer looks into: installed dependencies, vendored libraries and VCS data. */
export function isVendored(path: string): boolean {
  return VENDORED_IN_PATH.test(path);
}

/** A path under a folder of test data (fixtures/, testdata/, __snapshots__/, ...): files written to be read by tests, not the project's own code. */
export function isTestData(path: string): boolean {
  return DATA_FOLDER_IN_PATH.test(path);
}

/** A test file by its name alone (`a.test.ts`, `a.spec.js`, `test_a.py`, `a_test.py`, `a_test.go`, `ATest.java`). */
export function isTestFileName(name: string): boolean {
  return (
    /\.(test|spec|e2e-spec)\.[cm]?[jt]sx?$/.test(name) ||
    /^test_.+\.py$/.test(name) ||
    /_test\.(py|go|rb|exs?|cc|cpp|c)$/.test(name) ||
    /_spec\.rb$/.test(name) ||
    /Tests?\.(java|kt|cs|swift)$/.test(name)
  );
}

/** The test folder a path is under (through the first `tests/`-like segment, with its trailing '/'), or null. */
export function testFolderOf(path: string): string | null {
  if (!TEST_FOLDER_IN_PATH.test(path)) return null;
  const parts = path.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    if (!TEST_FOLDERS.has(parts[i])) continue;
    if (parts.slice(i + 1, -1).some((p) => DATA_FOLDERS.has(p))) return null;
    return `${parts.slice(0, i + 1).join('/')}/`;
  }
  return null;
}

/** A test file by convention: a test file name, or source code inside a test folder (fixtures and snapshots are not tests). */
export function isTestFile(path: string): boolean {
  if (isVendored(path)) return false;
  const name = baseName(path);
  if (isTestFileName(name)) return !DATA_FOLDER_IN_PATH.test(path);
  return langOf(path) !== null && testFolderOf(path) !== null && !/^(conftest|__init__)\.py$/.test(name);
}

/** The role of a file by its path (see the module note for the rule). */
export function fileRole(path: string): FileRole {
  if (VENDORED_IN_PATH.test(path)) return 'vendored';
  const name = baseName(path);
  if (GENERATED_IN_PATH.test(path) || GENERATED_NAME.test(name)) return 'generated';
  if (SNAPSHOT.test(path)) return 'snapshot';
  if (DATA_FOLDER_IN_PATH.test(path)) return 'fixture';
  if (isTestFile(path)) return 'test';
  if (
    LOCALE_EXTENSIONS.test(name) ||
    (LOCALE_FOLDER.test(path) && (LOCALE_DATA.test(name) || LOCALE_NAME.test(name)))
  )
    return 'locale';
  if (CHANGELOG_NAME.test(name) || CHANGELOG_FOLDER.test(path)) return 'changelog';
  if (EXAMPLE_FOLDER.test(path)) return 'example';
  const code = langOf(path) !== null;
  if (DOC_EXTENSIONS.test(name) || /^readme$/i.test(name) || (!code && DOC_FOLDER.test(path))) return 'docs';
  if (CONFIG_EXTENSIONS.test(name) || CONFIG_NAME.test(name)) return 'config';
  return 'source';
}

/** A line that only imports or re-exports (ES modules, CommonJS, Python), or closes such a statement. */
const REEXPORT_LINE =
  /^\s*(export\s+(\*|\{[^}]*\}|type\s+\{[^}]*\})\s*(as\s+\w+\s*)?from\s|export\s+\{[^}]*\}\s*;?\s*$|export\s+(default\s+)?[\w$]+\s*;?\s*$|import\s|from\s+[\w.]+\s+import\s|(module\.)?exports(\.[\w$]+)?\s*=\s*require\(|[\w$]+\s*:\s*require\(|[\w$]+\s*,?\s*$|\}\s*(from\s.*)?;?\s*$|['"]use strict['"];?\s*$|__all__\s*=|(const|var|let)\s+[\w${}\s,]+=\s*require\()/;

/**
 * A barrel: a JavaScript/TypeScript module or Python package file whose code is only imports and
 * re-exports (`export * from`, `export { a } from`, `module.exports = require(…)`, `from .x
 * import y`), at least 3 such lines and 80% of its non-blank lines. `text` is the file's text
 * or the start of it.
 */
export function isBarrelText(path: string, text: string): boolean {
  const lang = langOf(path);
  if (lang !== 'ts' && lang !== 'js' && lang !== 'python') return false;
  let lines = 0;
  let reexports = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    lines++;
    if (REEXPORT_LINE.test(line)) reexports++;
  }
  return reexports >= 3 && reexports >= lines * 0.8;
}
