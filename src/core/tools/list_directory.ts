/**
 * list_directory (seed 000): a directory's entries, recursive on request, under the walk
 * policy (noisy directories and ignored files are left out, symlink loops are not followed).
 * A missing directory answers found:false.
 */
import { QuarryError } from '../errors';
import type { FileSource } from '../source/types';
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
  /** Added: true when the listing stopped at MAX_ITEMS. */
  truncated?: boolean;
}

export const LIST_MAX_ITEMS = 10_000;

function item(display: (rel: string) => string, rel: string, type: 'file' | 'directory'): DirectoryItem {
  const name = rel.slice(rel.lastIndexOf('/') + 1);
  return { name, path: display(rel), type, isFile: type === 'file', isDirectory: type === 'directory' };
}

/** Walk a directory, yielding directories as well as files (walkFiles yields only files). */
async function listEntries(source: FileSource, start: string, recursive: boolean, limit: number) {
  const items: Array<{ rel: string; type: 'file' | 'directory' }> = [];
  const dirsSeen = new Set<string>();
  let truncated = false;
  const addDirsOf = (rel: string) => {
    // the directories on the way to a file, in order
    const parts = rel.split('/');
    const base = start === '' ? 0 : start.split('/').length;
    for (let i = base + 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      if (!dirsSeen.has(d)) {
        dirsSeen.add(d);
        items.push({ rel: d, type: 'directory' });
      }
    }
  };
  if (recursive) {
    const emptyDirs: string[] = [];
    for await (const f of walkFiles(source, { start, maxFileBytes: Infinity, acceptDir: (d) => (emptyDirs.push(d), true) })) {
      addDirsOf(f.path);
      items.push({ rel: f.path, type: 'file' });
      if (items.length >= limit) {
        truncated = true;
        break;
      }
    }
    // directories without any listed file are still entries
    if (!truncated) for (const d of emptyDirs) if (!dirsSeen.has(d)) items.push({ rel: d, type: 'directory' });
    items.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  } else {
    // one level: files from the walk (policy applied) plus the directories it would enter
    for await (const f of walkFiles(source, {
      start,
      maxFileBytes: Infinity,
      acceptDir: (d) => {
        items.push({ rel: d, type: 'directory' });
        return false;
      },
    })) {
      items.push({ rel: f.path, type: 'file' });
    }
    items.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  }
  return { items: items.slice(0, limit), truncated };
}

export const listDirectory: Tool<ListDirectoryResult> = {
  name: 'list_directory',
  description:
    'List the contents of a directory with optional recursive traversal (noisy directories such as node_modules and .git, and git-ignored files, are left out).',
  inputSchema: {
    type: 'object',
    properties: {
      directoryPath: { type: 'string', description: 'Path to directory (absolute or relative to codebase paths)' },
      recursive: { type: 'boolean', default: false, description: 'If true, recursively list all subdirectories' },
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
      const items: DirectoryItem[] = ws.names.map((n) => ({ name: n, path: n, type: 'directory', isFile: false, isDirectory: true }));
      if (recursive) {
        for (let i = 0; i < ws.roots.length; i++) {
          const { items: sub } = await listEntries(ws.roots[i], '', true, LIST_MAX_ITEMS);
          for (const s of sub) items.push(item((rel) => ws.displayPath(i, rel), s.rel, s.type));
        }
      }
      return { items, count: items.length, directoryPath, absolutePath: '', found: true };
    }
    const candidates = ws.resolveAll(directoryPath, 'directoryPath');
    for (const c of candidates) {
      const stat = await c.source.stat(c.rel);
      if (!stat) continue;
      if (stat.kind !== 'directory') {
        throw new QuarryError('InvalidArgument', `directoryPath is a file, not a directory: "${directoryPath}"`, {
          field: 'directoryPath',
          value: directoryPath,
        });
      }
      const { items, truncated } = await listEntries(c.source, c.rel, recursive, LIST_MAX_ITEMS);
      const out = items.map((e) => item((rel) => ws.displayPath(c.rootIndex, rel), e.rel, e.type));
      const result: ListDirectoryResult = { items: out, count: out.length, directoryPath: c.display || '.', absolutePath: c.absolute, found: true };
      if (truncated) result.truncated = true;
      return result;
    }
    const first = candidates[0];
    return { items: [], count: 0, directoryPath: first.display || directoryPath, absolutePath: first.absolute, found: false };
  },
};

function normalizeIsRoot(p: string): boolean {
  return p
    .replace(/\\/g, '/')
    .split('/')
    .every((s) => s === '' || s === '.');
}
