/**
 * list_directory (seed 000): a directory's entries, recursive on request, under the walk
 * policy (noisy directories and ignored files are left out, symlink loops are not followed).
 * A missing directory answers found:false.
 */
import { QuarryError } from '../errors';
import type { FileSource } from '../source/types';
import type { SkipReason, Skipped } from '../walk/policy';
import { walkFiles } from '../walk/walk';
import type { Tool } from './types';
import { ensureObject, optionalBoolean, requiredString } from './validate';

export interface DirectoryItem {
  name: string;
  path: string;
  type: 'file' | 'directory';
  isFile: boolean;
  isDirectory: boolean;
}

export interface ListDirectoryResult {
  items: DirectoryItem[];
  count: number;
  directoryPath: string;
  absolutePath: string;
  found: boolean;
  /** Added: true when there were more than LIST_MAX_ITEMS entries (items holds the first ones). */
  truncated?: boolean;
  /** Added, with truncated: how many entries there are in all. */
  total?: number;
  /** Added when any: entries that exist but could not be listed (unreadable, outside the root, not a regular file). */
  skipped?: ListedSkip[];
}

export const LIST_MAX_ITEMS = 10_000;

function item(display: (rel: string) => string, rel: string, type: 'file' | 'directory'): DirectoryItem {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  return { name, path: display(rel), type, isFile: type === 'file', isDirectory: type === 'directory' };
}

/** Skips a listing reports: what exists but cannot be listed (not what the policy leaves out). */
const REPORTED: ReadonlySet<SkipReason> = new Set(['unreadable', 'outsideRoot', 'notRegular', 'symlinkLoop']);
export const LIST_MAX_SKIPPED = 1000;

export interface ListedSkip {
  path: string;
  reason: SkipReason;
  detail?: string;
}

/**
 * Walk a directory, yielding directories as well as files (walkFiles yields only files). Past
 * `limit` entries the walk goes on counting (total) without keeping them.
 */
async function listEntries(source: FileSource, start: string, recursive: boolean, limit: number) {
  const items: Array<{ rel: string; type: 'file' | 'directory' }> = [];
  const skipped: ListedSkip[] = [];
  const dirsSeen = new Set<string>();
  let total = 0;
  const add = (rel: string, type: 'file' | 'directory') => {
    total++;
    if (!recursive || items.length < limit) items.push({ rel, type });
  };
  const addDirsOf = (rel: string) => {
    // the directories on the way to a file, in order
    const parts = rel.split('/');
    const base = start === '' ? 0 : start.split('/').length;
    for (let i = base + 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!dirsSeen.has(d)) {
        dirsSeen.add(d);
        add(d, 'directory');
      }
    }
  };
  const onSkip = (s: Skipped) => {
    if (REPORTED.has(s.reason) && skipped.length < LIST_MAX_SKIPPED)
      skipped.push(
        s.detail === undefined
          ? { path: s.path, reason: s.reason }
          : { path: s.path, reason: s.reason, detail: s.detail },
      );
  };
  if (recursive) {
    const emptyDirs: string[] = [];
    for await (const f of walkFiles(source, {
      start,
      maxFileBytes: Infinity,
      onSkip,
      acceptDir: (d) => (emptyDirs.push(d), true),
    })) {
      addDirsOf(f.path);
      add(f.path, 'file');
    }
    // directories without any listed file are still entries
    for (const d of emptyDirs) if (!dirsSeen.has(d)) add(d, 'directory');
  } else {
    // one level: files from the walk (policy applied) plus the directories it would enter
    for await (const f of walkFiles(source, {
      start,
      maxFileBytes: Infinity,
      onSkip,
      acceptDir: (d) => {
        add(d, 'directory');
        return false;
      },
    })) {
      add(f.path, 'file');
    }
  }
  items.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { items: items.slice(0, limit), truncated: total > limit, total, skipped };
}

export const listDirectory: Tool<ListDirectoryResult> = {
  name: 'list_directory',
  description:
    'List the contents of a directory with optional recursive traversal (noisy directories such as node_modules and .git, and git-ignored files, are left out).',
  inputSchema: {
    type: 'object',
    properties: {
      directoryPath: {
        type: 'string',
        description: 'Path to directory (absolute or relative to codebase paths)',
      },
      recursive: {
        type: 'boolean',
        default: false,
        description: 'If true, recursively list all subdirectories',
      },
    },
    required: ['directoryPath'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    const args = ensureObject(raw);
    const directoryPath = requiredString(args, 'directoryPath', { allowEmpty: true });
    const recursive = optionalBoolean(args, 'recursive', false);
    const ws = ctx.workspace;
    if (ws.multiRoot && normalizeIsRoot(directoryPath)) {
      // the workspace root of several roots: one directory per root
      const items: DirectoryItem[] = ws.names.map((n) => ({
        name: n,
        path: n,
        type: 'directory',
        isFile: false,
        isDirectory: true,
      }));
      let total = items.length;
      const skipped: ListedSkip[] = [];
      if (recursive) {
        for (let i = 0; i < ws.roots.length; i++) {
          const sub = await listEntries(ws.roots[i], '', true, LIST_MAX_ITEMS);
          total += sub.total;
          const display = (rel: string) => ws.displayPath(i, rel);
          for (const s of sub.items)
            if (items.length < LIST_MAX_ITEMS) items.push(item(display, s.rel, s.type));
          for (const k of sub.skipped) skipped.push({ ...k, path: display(k.path) });
        }
      }
      const result: ListDirectoryResult = {
        items,
        count: items.length,
        directoryPath,
        absolutePath: '',
        found: true,
      };
      if (total > items.length) Object.assign(result, { truncated: true, total });
      if (skipped.length) result.skipped = skipped.slice(0, LIST_MAX_SKIPPED);
      return result;
    }
    const candidates = ws.resolveAll(directoryPath, 'directoryPath');
    for (const c of candidates) {
      const stat = await c.source.stat(c.rel);
      if (!stat) continue;
      if (stat.kind !== 'directory') {
        throw new QuarryError(
          'InvalidArgument',
          `directoryPath is a file, not a directory: "${directoryPath}"`,
          {
            field: 'directoryPath',
            value: directoryPath,
          },
        );
      }
      const { items, truncated, total, skipped } = await listEntries(
        c.source,
        c.rel,
        recursive,
        LIST_MAX_ITEMS,
      );
      const display = (rel: string) => ws.displayPath(c.rootIndex, rel);
      const out = items.map((e) => item(display, e.rel, e.type));
      const result: ListDirectoryResult = {
        items: out,
        count: out.length,
        directoryPath: c.display || '.',
        absolutePath: c.absolute,
        found: true,
      };
      if (truncated) {
        result.truncated = true;
        result.total = total;
      }
      if (skipped.length) result.skipped = skipped.map((k) => ({ ...k, path: display(k.path) }));
      return result;
    }
    const first = candidates[0];
    return {
      items: [],
      count: 0,
      directoryPath: first.display || directoryPath,
      absolutePath: first.absolute,
      found: false,
    };
  },
};

function normalizeIsRoot(p: string): boolean {
  return p
    .replace(/\\/g, '/')
    .split('/')
    .every((s) => s === '' || s === '.');
}
