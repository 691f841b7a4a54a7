/** Repositories built with the `git` CLI in a temp dir, for tests that compare Quarry with git itself. */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GitRepo } from './blob-at';
import { commitsImportStream } from './fast-import.testutil';

export interface Author {
  name: string;
  email: string;
}

export const ADA: Author = { name: 'Ada Lovelace', email: 'ada@example.test' };
export const GRACE: Author = { name: 'Grace Hopper', email: 'grace@example.test' };

const BASE = 1_767_225_600; // 2026-01-01T00:00:00Z

export class CliRepo {
  readonly dir: string;
  private commits = 0;

  constructor(prefix = 'quarry-cli-repo-') {
    this.dir = fs.mkdtempSync(join(tmpdir(), prefix));
    this.git(['init', '-q', '-b', 'main']);
  }

  git(args: string[], author: Author = ADA, date = BASE): string {
    const when = `${date} +0000`;
    return execFileSync('git', args, {
      cwd: this.dir,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_COMMITTER_NAME: author.name,
        GIT_COMMITTER_EMAIL: author.email,
        GIT_AUTHOR_DATE: when,
        GIT_COMMITTER_DATE: when,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        LC_ALL: 'C',
      },
    });
  }

  write(path: string, content: string | Uint8Array): void {
    const full = join(this.dir, path);
    fs.mkdirSync(dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
  }

  /** Write files (null deletes), commit everything; returns the new commit's oid. */
  commit(files: Record<string, string | Uint8Array | null>, message: string, author: Author = ADA): string {
    for (const [path, content] of Object.entries(files)) {
      if (content === null) fs.rmSync(join(this.dir, path), { force: true });
      else this.write(path, content);
    }
    this.git(['add', '-A']);
    const date = BASE + 3600 * ++this.commits;
    this.git(['commit', '-q', '--allow-empty', '-m', message], author, date);
    return this.git(['rev-parse', 'HEAD']).trim();
  }

  /**
   * Many commits at once through `git fast-import` (a thousand commits of a 5,000-line file in
   * seconds, where `git commit` would take minutes); the working tree is checked out after.
   */
  fastImport(
    commits: Array<{ files: Record<string, string | null>; message: string; author?: Author }>,
  ): void {
    let hasHead = '';
    try {
      hasHead = this.git(['rev-parse', '--verify', '-q', 'HEAD']).trim();
    } catch {
      // an empty repository: the first commit is a root
    }
    const stream = commitsImportStream(
      commits.map((c) => {
        const who = c.author ?? ADA;
        const when = `${BASE + 3600 * ++this.commits} +0000`;
        return { message: c.message, files: c.files, who: `${who.name} <${who.email}> ${when}` };
      }),
      hasHead || null,
    );
    execFileSync('git', ['fast-import', '--quiet'], {
      cwd: this.dir,
      input: stream,
      maxBuffer: 256 * 1024 * 1024,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    });
    this.git(['checkout', '-q', '-f', 'main']);
  }

  /** git blame --porcelain at HEAD: per line, the commit and the line's number there (1-based). */
  blame(path: string): Array<{ oid: string; orig: number }> {
    const out = this.git(['blame', '--porcelain', '--first-parent', 'HEAD', '--', path]);
    const lines: Array<{ oid: string; orig: number }> = [];
    for (const m of out.matchAll(/^([0-9a-f]{40}) (\d+) (\d+)(?: \d+)?$/gm))
      lines.push({ oid: m[1], orig: Number(m[2]) });
    return lines;
  }

  repo(): GitRepo {
    return { fs, dir: this.dir, cache: {}, name: 'test-repo' };
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
