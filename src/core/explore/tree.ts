/**
 * explore's directory tree (seed 003, the tree agent): a list of file paths drawn as the Unix
 * `tree` command draws it, so a reader (or a model) sees the shape of a folder at a glance.
 *   root/
 *   ├── src/
 *   │   ├── core/ (14 files)
 *   │   └── main.ts
 *   └── README.md
 * Directories come first, then files, each in case-insensitive natural order ("file2" before
 * "file10"); a directory ends with '/'. `levels` levels of entries are drawn (3 by default); a
 * directory on the last level is collapsed to its file count. A directory with more than
 * `maxEntriesPerDir` entries shows that many and then one line counting the rest. Paths that
 * are empty or climb out of the folder ('..') are ignored; a path given twice is drawn once.
 * The output is bounded by the caps ((cap + 1)^levels lines at most), not by the input.
 */

export interface TreeOptions {
  /** Levels of entries drawn below the root; a directory on the last one is collapsed. Default 3. */
  levels?: number;
  /** Entries shown per directory before the rest is counted on one line. Default 25. */
  maxEntriesPerDir?: number;
}

interface Dir {
  dirs: Map<string, Dir>;
  files: Set<string>;
  /** Files in this directory and below. */
  total: number;
}

const newDir = (): Dir => ({ dirs: new Map(), files: new Set(), total: 0 });

/** The tree of `files` under a first line `rootLabel/`. */
export function drawTree(rootLabel: string, files: readonly string[], options: TreeOptions = {}): string {
  const levels = wholeNumber(options.levels, 3, 0);
  const cap = wholeNumber(options.maxEntriesPerDir, 25, 1);
  const root = newDir();
  for (const file of files) add(root, file);
  const label = rootLabel.replace(/[\\/]+$/, '');
  const lines = [`${printable(label === '' ? '.' : label)}/`];
  if (levels > 0) draw(root, '', 1, levels, cap, lines);
  return lines.join('\n');
}

/** A whole number >= min, or the default for anything else (NaN, undefined); Infinity is kept (no cap). */
function wholeNumber(value: number | undefined, fallback: number, min: number): number {
  if (value === undefined || Number.isNaN(value)) return fallback;
  return Math.max(min, value === Infinity ? value : Math.floor(value));
}

function add(root: Dir, file: string): void {
  if (typeof file !== 'string') return;
  // '/' only: a backslash is part of a POSIX file name (`back\slash.ts` is a file, not a folder)
  const parts = file.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) return;
  // the folders are made on the way down; the file is counted (in every folder above it) once
  let dir = root;
  const chain: Dir[] = [root];
  for (const part of parts.slice(0, -1)) {
    let next = dir.dirs.get(part);
    if (!next) dir.dirs.set(part, (next = newDir()));
    chain.push((dir = next));
  }
  const name = parts[parts.length - 1];
  if (dir.files.has(name)) return;
  dir.files.add(name);
  for (const d of chain) d.total++;
}

function draw(dir: Dir, prefix: string, level: number, levels: number, cap: number, lines: string[]): void {
  const dirNames = [...dir.dirs.keys()].sort(naturalCompare);
  const fileNames = [...dir.files].sort(naturalCompare);
  const entries = dirNames.length + fileNames.length;
  const shown = Math.min(entries, cap);
  const hidden = entries - shown;
  for (let i = 0; i < shown; i++) {
    const last = i === shown - 1 && hidden === 0;
    const branch = prefix + (last ? '└── ' : '├── ');
    if (i < dirNames.length) {
      const child = dir.dirs.get(dirNames[i])!;
      const name = `${printable(dirNames[i])}/`;
      if (level >= levels) lines.push(`${branch}${name} (${plural(child.total, 'file')})`);
      else {
        lines.push(branch + name);
        draw(child, prefix + (last ? '    ' : '│   '), level + 1, levels, cap, lines);
      }
    } else lines.push(branch + printable(fileNames[i - dirNames.length]));
  }
  if (hidden > 0) {
    const hiddenDirs = Math.max(0, dirNames.length - shown);
    const hiddenFiles = hidden - hiddenDirs;
    const parts = [
      hiddenFiles > 0 ? plural(hiddenFiles, 'file') : '',
      hiddenDirs > 0 ? plural(hiddenDirs, 'folder') : '',
    ].filter(Boolean);
    lines.push(`${prefix}└── … ${hidden} more (${parts.join(', ')})`);
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A name on one line: control characters (a newline in a file name) shown as '?'. */
function printable(name: string): string {
  return name.replace(/[\x00-\x1f\x7f]/g, '?');
}

/**
 * Case-insensitive natural order: digit runs compare by value ("file2" < "file10"), the rest
 * by lower-cased code units; equal names under that order fall back to plain code-unit order,
 * so the result is total and does not depend on the host's locale data.
 */
export function naturalCompare(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    const cx = x.charCodeAt(i);
    const cy = y.charCodeAt(j);
    if (isDigit(cx) && isDigit(cy)) {
      let ei = i;
      let ej = j;
      while (ei < x.length && isDigit(x.charCodeAt(ei))) ei++;
      while (ej < y.length && isDigit(y.charCodeAt(ej))) ej++;
      const nx = x.slice(i, ei).replace(/^0+(?=.)/, '');
      const ny = y.slice(j, ej).replace(/^0+(?=.)/, '');
      if (nx.length !== ny.length) return nx.length - ny.length;
      if (nx !== ny) return nx < ny ? -1 : 1;
      if (ei - i !== ej - j) return ei - i - (ej - j); // "01" after "1"
      i = ei;
      j = ej;
    } else {
      if (cx !== cy) return cx - cy;
      i++;
      j++;
    }
  }
  if (x.length - i !== y.length - j) return x.length - i - (y.length - j);
  return a < b ? -1 : a > b ? 1 : 0;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
