/**
 * The one walk policy every caller uses (tools, UI, index, CLI).
 *
 * NOISY_PATH_SEGMENTS is the union of seed 002's hard-coded skip list and seed 004's
 * skipped path segments. A path with any of these segments is never walked into.
 */
export const NOISY_PATH_SEGMENTS: readonly string[] = [
  // seed 002
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.ruff_cache',
  'node_modules',
  'venv',
  '.venv',
  'env',
  '.env',
  'dist',
  'build',
  'target',
  'out',
  '.next',
  '.nuxt',
  '.idea',
  '.vscode',
  '.DS_Store',
  // seed 004 adds nothing new (node_modules, dist, target, .git are already above)
];

/** Seed 004: files larger than 1,048,576 bytes are skipped. */
export const DEFAULT_MAX_FILE_BYTES = 1_048_576;

/** Ignore files honoured in every directory (git's, and ripgrep's own). */
export const IGNORE_FILE_NAMES: readonly string[] = ['.gitignore', '.ignore'];

export type SkipReason =
  | 'binary'
  | 'tooLarge'
  | 'ignored' // matched a .gitignore / .ignore rule
  | 'noisyPath' // a directory or file in NOISY_PATH_SEGMENTS
  | 'unreadable'
  | 'symlinkLoop'
  | 'notRegular' // FIFOs, sockets, devices, broken symlinks
  | 'indexBudget' // past the code index's text budget (limits.ts): searched by scanning only
  | 'outsideRoot' // a symlink (or a path through one) that resolves outside the root
  | 'minified' // indexes: in the text index only, no symbol chunks (chunk/minified.ts)
  | 'generated' // indexes: in the text index only, no chunks (chunk/generated.ts: lockfiles, @generated)
  | 'parseFailed'; // the code index: its parser failed or ran out of time (text index only)

export interface Skipped {
  path: string;
  reason: SkipReason;
  detail?: string;
  /** true when the path is a directory that was not descended into. */
  directory?: boolean;
}

export interface WalkPolicy {
  /** Honour .gitignore / .ignore files at every level (default true). */
  useIgnoreFiles: boolean;
  /** Path segments never walked into. */
  noisySegments: readonly string[];
  maxFileBytes: number;
  followSymlinks: boolean;
}

export const DEFAULT_POLICY: WalkPolicy = {
  useIgnoreFiles: true,
  noisySegments: NOISY_PATH_SEGMENTS,
  maxFileBytes: DEFAULT_MAX_FILE_BYTES,
  followSymlinks: true,
};

export function resolvePolicy(partial: Partial<WalkPolicy> = {}): WalkPolicy {
  return {
    ...DEFAULT_POLICY,
    ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)),
  };
}
