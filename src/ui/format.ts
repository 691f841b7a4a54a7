/** Small display helpers. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

export const SKIP_REASON_TEXT: Record<string, string> = {
  binary: 'binary file',
  tooLarge: 'larger than the size limit',
  ignored: 'matched a .gitignore rule',
  noisyPath: 'build or dependency folder',
  unreadable: 'could not be read',
  symlinkLoop: 'symlink loop',
  notRegular: 'not a regular file',
  outsideRoot: 'a link that leads outside the folder',
  minified: 'minified: text search only',
  generated: 'generated: text search only',
  parseFailed: 'parser failed: text search only',
  indexBudget: "past the index's size budget: text search scans it",
};

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
