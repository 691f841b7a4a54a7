/**
 * The files one explore run reads, shared by its analyzers: each root holding the explored
 * path is walked once (under the walk policy), and file texts are read once and kept (up to a
 * byte budget, past which they are read again when asked). Analyzers run concurrently and ask
 * for the same READMEs, manifests and sources; none of them walks or reads on its own.
 */
import { QuarryError } from '../errors';
import { createYielder, unlessAborted, type Yielder } from '../jobs/yielder';
import type { FileSource } from '../source/types';
import type { Workspace } from '../source/workspace';
import { readText, throwIfAborted, walkFiles, type WalkedFile } from '../walk/walk';

/** Texts kept in memory for the run; beyond this they are read again when asked. */
const TEXT_CACHE_BYTES = 96 * 1024 * 1024;

const abortError = (signal?: AbortSignal): Error =>
  signal?.reason instanceof Error
    ? signal.reason
    : new QuarryError('Cancelled', 'The explore run was cancelled');

export interface ExploreRoot {
  rootIndex: number;
  source: FileSource;
  /** The explored directory, root-relative ('' for the root). */
  dir: string;
  /** The explored file, root-relative, when the path names a file. */
  file?: string;
}

export interface CorpusFile {
  /** Workspace path (as tools print it). */
  path: string;
  rootIndex: number;
  /** Root-relative path. */
  rel: string;
  size: number;
}

interface Shared {
  walked: Map<number, Promise<WalkedFile[]>>;
  texts: Map<string, string | null>;
  textBytes: number;
  /** The run's signal: a walk is shared, so only the whole run stops it. */
  runSignal?: AbortSignal;
}

export class ExploreCorpus {
  readonly yielder: Yielder = createYielder();
  private readonly shared: Shared;

  constructor(
    readonly workspace: Workspace,
    readonly roots: readonly ExploreRoot[],
    /** This analyzer's signal (the run's, or one that also ends at the analyzer's time budget). */
    readonly signal?: AbortSignal,
    shared?: Shared,
  ) {
    this.shared = shared ?? { walked: new Map(), texts: new Map(), textBytes: 0, runSignal: signal };
  }

  /** The same files and caches, read under another signal (one analyzer's). */
  fork(signal: AbortSignal): ExploreCorpus {
    return new ExploreCorpus(this.workspace, this.roots, signal, this.shared);
  }

  /** Every file of a root (root-relative), walked once: the import resolver needs files outside the explored folder too. */
  rootFiles(rootIndex: number): Promise<WalkedFile[]> {
    let p = this.shared.walked.get(rootIndex);
    if (!p) {
      p = (async () => {
        const out: WalkedFile[] = [];
        for await (const f of walkFiles(this.workspace.roots[rootIndex], { signal: this.shared.runSignal })) {
          out.push(f);
          const y = this.yielder.maybeYield();
          if (y) await y;
        }
        return out;
      })();
      this.shared.walked.set(rootIndex, p);
    }
    return unlessAborted(p, this.signal, () => abortError(this.signal));
  }

  /** The files under the explored path, in walk order, with their workspace paths. */
  async files(): Promise<CorpusFile[]> {
    const out: CorpusFile[] = [];
    for (const r of this.roots) {
      const all = await this.rootFiles(r.rootIndex);
      const prefix = r.dir ? `${r.dir}/` : '';
      for (const f of all) {
        if (r.file ? f.path !== r.file : prefix && !f.path.startsWith(prefix)) continue;
        out.push({
          path: this.workspace.displayPath(r.rootIndex, f.path),
          rootIndex: r.rootIndex,
          rel: f.path,
          size: f.size,
        });
      }
    }
    return out;
  }

  /** A file's text, or null when it is binary or unreadable. */
  async text(rootIndex: number, rel: string): Promise<string | null> {
    throwIfAborted(this.signal);
    const key = `${rootIndex}\0${rel}`;
    const { texts } = this.shared;
    if (texts.has(key)) return texts.get(key)!;
    const loaded = await readText(this.workspace.roots[rootIndex], rel).catch(() => null);
    const text = loaded?.ok ? loaded.text : null;
    const bytes = text ? text.length * 2 : 0;
    if (this.shared.textBytes + bytes <= TEXT_CACHE_BYTES) {
      texts.set(key, text);
      this.shared.textBytes += bytes;
    }
    return text;
  }

  /** Yield to the event loop on the time budget (other analyzers and the host's messages run meanwhile). */
  async pause(): Promise<void> {
    throwIfAborted(this.signal);
    const y = this.yielder.maybeYield();
    if (y) await y;
  }
}

/**
 * The explored path as roots: '' or '.' is every root; otherwise every root where the path
 * exists (a folder or a file). Nothing there is NotFound.
 */
export async function resolveExploreRoots(workspace: Workspace, path: string): Promise<ExploreRoot[]> {
  const out: ExploreRoot[] = [];
  for (const c of workspace.resolveAll(path, 'path')) {
    const st = await c.source.stat(c.rel);
    if (st?.kind === 'directory') out.push({ rootIndex: c.rootIndex, source: c.source, dir: c.rel });
    else if (st?.kind === 'file') {
      const slash = c.rel.lastIndexOf('/');
      out.push({
        rootIndex: c.rootIndex,
        source: c.source,
        dir: slash < 0 ? '' : c.rel.slice(0, slash),
        file: c.rel,
      });
    }
  }
  if (!out.length)
    throw new QuarryError('NotFound', `Path not found: ${path}`, { field: 'path', value: path });
  return out;
}
