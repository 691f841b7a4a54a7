/**
 * Path conventions explore's key-file and pattern analyzers share: a path's language family,
 * whether a file is a test by its ecosystem's naming (`*.test.ts`, `test_*.py`, `*_test.go`,
 * files under `tests/` or `__tests__/`), and the test folder it belongs to.
 * The language table mirrors chunk/languages.ts (`languageForPath`) with `.mts`/`.cts` added;
 * it is kept here so these pure analyzers do not load the chunkers and their grammar runtime.
 */

import { baseName, dirName, extensionOf as rawExtension } from '../source/types';

export type Lang = 'ts' | 'js' | 'python' | 'go' | 'rust' | 'c' | 'cpp' | 'java' | 'kotlin' | 'csharp' | 'swift' | 'ruby' | 'php' | 'shell';

const LANG_BY_EXTENSION: Readonly<Record<string, Lang>> = {
  ts: 'ts',
  tsx: 'ts',
  mts: 'ts',
  cts: 'ts',
  js: 'js',
  jsx: 'js',
  mjs: 'js',
  cjs: 'js',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  java: 'java',
  kt: 'kotlin',
  kts: 'kotlin',
  cs: 'csharp',
  swift: 'swift',
  rb: 'ruby',
  php: 'php',
  sh: 'shell',
  bash: 'shell',
};

/** A path with '/' separators and no leading './'. */
export function normalizePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '');
}

export { baseName, dirName };

/** The final extension, lower-cased, without the dot ('' when none). */
export function extensionOf(path: string): string {
  return rawExtension(path).toLowerCase();
}

/** The language family of a source file by its extension, or null. */
export function langOf(path: string): Lang | null {
  const ext = extensionOf(path);
  return Object.hasOwn(LANG_BY_EXTENSION, ext) ? LANG_BY_EXTENSION[ext] : null;
}

export const isEcmascript = (lang: Lang | null): lang is 'ts' | 'js' => lang === 'ts' || lang === 'js';

/** Folders no analyzer looks into: installed dependencies and VCS data. */
export function isVendored(path: string): boolean {
  return /(^|\/)(node_modules|vendor|bower_components|\.git|\.hg|\.svn)\//.test(path);
}

/** Folder names that hold tests. */
const TEST_FOLDERS = new Set(['test', 'tests', '__tests__', 'spec', 'specs', 'e2e', 'integration-tests', 'testing']);
const TEST_FOLDER_IN_PATH = /(^|\/)(test|tests|__tests__|spec|specs|e2e|integration-tests|testing)\//;
/** Folders under a test folder that hold data, not tests. */
const DATA_FOLDERS = new Set(['fixtures', '__fixtures__', 'testdata', '__snapshots__', '__mocks__', 'snapshots', 'data']);
const DATA_FOLDER_IN_PATH = /(^|\/)(fixtures[\w-]*|__fixtures__|testdata|__snapshots__|__mocks__|snapshots)\//;

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

/** Words of a count: "1 file", "3 files". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}

/** 12345 -> "12,345" (no locale data needed). */
export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

/** A line as evidence: trimmed and at most 200 characters. */
export function clip(text: string, max = 200): string {
  const t = text.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}
