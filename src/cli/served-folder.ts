/**
 * The folder `quarry serve --root DIR` exposes read-only (serve.ts answers the requests): its
 * listing, the files the walk policy admits, and the bytes of listed files only.
 *
 * One walk at a time, shared: every listing request that comes while a walk runs waits for that
 * walk and gets the same bytes (50 requests at once on 30,000 files used to walk 50 times, one
 * after another, for 22.8 s); a request that comes after it ended walks afresh, so the app's
 * Refresh sees the folder as it is now. The walk lets the event loop run between reads
 * (turns.ts), so the server answers other requests (and lets more join) while it walks.
 */
import { walkFiles } from '../core/walk/walk';
import type { FileSource } from '../core/source/types';
import { Turns, yieldingSource } from './turns';

export interface ListedFile {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface Listing {
  files: ListedFile[];
  /** The JSON answer, `{name, files}`, made once per walk for every request that shares it. */
  body: Buffer;
}

export class ServedFolder {
  readonly name: string;
  private readonly source: FileSource;
  private walking: Promise<Listing> | null = null;
  private listed: Set<string> | null = null;
  private walkCount = 0;

  constructor(source: FileSource, turns: Turns = new Turns()) {
    this.name = source.name;
    this.source = yieldingSource(source, turns);
  }

  /** Walks started so far (tests). */
  get walks(): number {
    return this.walkCount;
  }

  /** The walk running now, or a new one. */
  listing(): Promise<Listing> {
    if (!this.walking) {
      const run = this.walk();
      this.walking = run;
      const done = () => {
        if (this.walking === run) this.walking = null;
      };
      run.then(done, done);
    }
    return this.walking;
  }

  private async walk(): Promise<Listing> {
    this.walkCount++;
    const files: ListedFile[] = [];
    for await (const f of walkFiles(this.source))
      files.push({ path: f.path, size: f.size, mtimeMs: Math.floor(f.mtimeMs) });
    this.listed = new Set(files.map((f) => f.path));
    return { files, body: Buffer.from(JSON.stringify({ name: this.name, files })) };
  }

  /** null when `rel` is not in the latest listing; throws (PathOutsideRoot, Unreadable...) when it cannot be read. */
  async read(rel: string): Promise<Uint8Array | null> {
    if (!this.listed) await this.listing();
    if (!this.listed?.has(rel)) return null;
    return this.source.read(rel); // refuses a symlink that leads outside the root, and anything not a regular file
  }
}
