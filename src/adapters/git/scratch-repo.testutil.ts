/** A throwaway git repository driven by the git CLI (the peer the history tests compare against). */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { commitsImportStream } from './fast-import.testutil';

export const BASE_DATE = 1_767_225_600; // 2026-01-01T00:00:00Z

export class ScratchRepo {
  readonly dir: string;
  private clock = BASE_DATE;

  constructor(prefix = 'quarry-history-') {
    this.dir = mkdtempSync(join(tmpdir(), prefix));
    this.git(['init', '-q', '-b', 'main']);
  }

  /** Run git here; commits get a fixed author and a date (each new commit one minute later unless given). */
  git(args: string[], options: { date?: number; input?: string | Buffer } = {}): string {
    const when = `${options.date ?? this.clock} +0000`;
    return execFileSync('git', args, {
      cwd: this.dir,
      encoding: 'utf8',
      input: options.input,
      maxBuffer: 256 * 1024 * 1024,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Ada Lovelace',
        GIT_AUTHOR_EMAIL: 'ada@example.test',
        GIT_COMMITTER_NAME: 'Ada Lovelace',
        GIT_COMMITTER_EMAIL: 'ada@example.test',
        GIT_AUTHOR_DATE: when,
        GIT_COMMITTER_DATE: when,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_TERMINAL_PROMPT: '0',
      },
    });
  }

  write(path: string, content: string | Uint8Array, mtimeSec?: number): void {
    const full = join(this.dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    if (mtimeSec !== undefined) utimesSync(full, mtimeSec, mtimeSec);
  }

  remove(path: string): void {
    rmSync(join(this.dir, path), { recursive: true, force: true });
  }

  /** Write `files` (null deletes), stage everything and commit; returns the new commit's oid. */
  commit(message: string, files: Record<string, string | null> = {}, date?: number): string {
    for (const [path, content] of Object.entries(files)) {
      if (content === null) this.remove(path);
      else this.write(path, content);
    }
    this.git(['add', '-A']);
    this.clock = date ?? this.clock + 60;
    this.git(['commit', '-q', '--allow-empty', '-m', message], { date: this.clock });
    return this.head();
  }

  /** `count` linear commits on main through `git fast-import` (seconds for thousands), checked out. */
  fastImport(count: number, options: { files?: number } = {}): void {
    let parent: string | undefined;
    try {
      parent = this.head();
    } catch {
      // an empty repository: the first commit is a root
    }
    this.git(['fast-import', '--quiet'], {
      input: fastImportStream(count, { start: this.clock + 60, parent, ...options }),
    });
    this.clock += 60 * count;
    this.git(['checkout', '-q', '-f', 'main']);
  }

  /**
   * `commits` on main as commit() would make them (each file written, null deletes; the same
   * author and clock), through one `git fast-import` and checked out: a few processes instead
   * of three a commit. `loose`: the objects are unpacked, loose as commit() leaves them.
   */
  importCommits(
    commits: Array<{ message: string; files: Record<string, string | null> }>,
    options: { loose?: boolean } = {},
  ): void {
    let parent: string | undefined;
    try {
      parent = this.head();
    } catch {
      // an empty repository: the first commit is a root
    }
    const stream = commitsImportStream(
      commits.map((c) => {
        this.clock += 60;
        const message = c.message.endsWith('\n') ? c.message : `${c.message}\n`;
        return { message, files: c.files, who: `Ada Lovelace <ada@example.test> ${this.clock} +0000` };
      }),
      parent ?? null,
    );
    this.git(['fast-import', '--quiet'], { input: stream });
    if (options.loose) {
      // the pack fast-import wrote, moved out and unpacked into loose objects
      const packDir = join(this.dir, '.git', 'objects', 'pack');
      for (const name of readdirSync(packDir).filter((n) => n.endsWith('.pack'))) {
        const moved = join(this.dir, '.git', name);
        renameSync(join(packDir, name), moved);
        rmSync(join(packDir, name.replace(/\.pack$/, '.idx')), { force: true });
        this.git(['unpack-objects', '-q'], { input: readFileSync(moved) });
        rmSync(moved);
      }
    }
    this.git(['checkout', '-q', '-f', 'main']);
  }

  head(): string {
    return this.git(['rev-parse', 'HEAD']).trim();
  }

  /** `git log` in its default order: oid and parents per commit. */
  log(ref = 'HEAD'): Array<{ oid: string; parents: string[] }> {
    return this.git(['log', '--format=%H %P', ref])
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [oid, ...parents] = line.trim().split(' ');
        return { oid, parents: parents.filter(Boolean) };
      });
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A fast-import stream of `count` linear commits on refs/heads/main (after `parent` when given), one minute apart, each
 * changing one of `files` small files (default 50), authors taking turns.
 */
export function fastImportStream(
  count: number,
  options: { start?: number; files?: number; parent?: string } = {},
): Buffer {
  const start = options.start ?? BASE_DATE;
  const files = Math.max(1, options.files ?? 50);
  const parts: Buffer[] = [];
  const put = (s: string) => parts.push(Buffer.from(s, 'utf8'));
  for (let i = 0; i < count; i++) {
    const who = `Dev ${i % 7} <dev${i % 7}@example.test> ${start + i * 60} +0000`;
    const message = Buffer.from(`Change ${i}: update module ${i % files}\n\nWhy change ${i} was made.\n`);
    const content = Buffer.from(`export const value${i} = ${i};\n`);
    put(`commit refs/heads/main\nmark :${i + 1}\nauthor ${who}\ncommitter ${who}\ndata ${message.length}\n`);
    parts.push(message);
    put(i > 0 ? `from :${i}\n` : options.parent ? `from ${options.parent}\n` : '');
    put(`M 100644 inline src/m${i % files}/f${i % 13}.ts\ndata ${content.length}\n`);
    parts.push(content);
    put('\n');
  }
  return Buffer.concat(parts);
}
