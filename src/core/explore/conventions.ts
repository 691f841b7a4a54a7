/**
 * Path conventions explore's key-file and pattern analyzers share: a path's language family,
 * whether a file is a test by its ecosystem's naming (`*.test.ts`, `test_*.py`, `*_test.go`,
 * files under `tests/` or `__tests__/`), and the test folder it belongs to.
 * The rules themselves are source/file-role.ts's (the one file-role rule rankers use too); its
 * language families come from source/languages.ts, the extension table the chunker reads too,
 * so these pure analyzers do not load the chunkers and their grammar runtime.
 */

import { baseName, dirName } from '../source/types';

export {
  extensionOf,
  isTestData,
  isTestFile,
  isTestFileName,
  isVendored,
  langOf,
  testFolderOf,
  type Lang,
} from '../source/file-role';
import type { Lang } from '../source/file-role';

/**
 * A listed path without its leading './'. Paths are '/'-separated already; a backslash is a
 * character of a POSIX file name (`back\slash.ts`), never read as a separator.
 */
export function normalizePath(path: string): string {
  return path.replace(/^(?:\.\/)+/, '');
}

export { baseName, dirName };

export const isEcmascript = (lang: Lang | null): lang is 'ts' | 'js' => lang === 'ts' || lang === 'js';

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
