/**
 * Fixture repositories for the local git server: each is built at start with the `git` CLI
 * from a spec (files per commit), kept as a working clone in `work/<name>` and served bare
 * from `bare/<name>.git`. commitToFixture() commits in the working clone and pushes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** path -> content; null deletes the path in that commit. */
export type FixtureFiles = Record<string, string | Uint8Array | null>;

export interface FixtureCommit {
  files: FixtureFiles;
  message: string;
  /** Fixed author date (seconds since the epoch) so history tests are stable. */
  date?: number;
  /** Author and committer (default AUTHOR). */
  author?: { name: string; email: string };
}

export interface FixtureSpec {
  name: string;
  /** Applied in order on the default branch ('main'). */
  commits: FixtureCommit[];
  /** Extra branches, each forked from the tip of main with its own commits. */
  branches?: Record<string, FixtureCommit[]>;
  /** When set, every request needs `Authorization: Basic` with this token as user or password. */
  token?: string;
}

export const AUTHOR = { name: 'Quarry Fixture', email: 'fixture@quarry.test' };
const BASE_DATE = 1_767_225_600; // 2026-01-01T00:00:00Z

function git(cwd: string, args: string[], date?: number, author = AUTHOR): string {
  const when = `${date ?? BASE_DATE} +0000`;
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
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
      GIT_TERMINAL_PROMPT: '0',
    },
  });
}

function applyFiles(work: string, files: FixtureFiles): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(work, path);
    if (content === null) {
      rmSync(full, { force: true });
      continue;
    }
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

function commit(work: string, c: FixtureCommit, fallbackDate: number): string {
  applyFiles(work, c.files);
  git(work, ['add', '-A']);
  git(work, ['commit', '--allow-empty', '-q', '-m', c.message], c.date ?? fallbackDate, c.author);
  return git(work, ['rev-parse', 'HEAD']).trim();
}

export class FixtureRepo {
  readonly work: string;
  readonly bare: string;
  private commitCount = 0;

  constructor(
    readonly spec: FixtureSpec,
    root: string,
  ) {
    this.work = join(root, 'work', spec.name);
    this.bare = join(root, 'bare', `${spec.name}.git`);
  }

  build(): void {
    rmSync(this.work, { recursive: true, force: true });
    rmSync(this.bare, { recursive: true, force: true });
    mkdirSync(this.work, { recursive: true });
    git(this.work, ['init', '-q', '-b', 'main']);
    for (const c of this.spec.commits) commit(this.work, c, BASE_DATE + 60 * this.commitCount++);
    for (const [branch, commits] of Object.entries(this.spec.branches ?? {})) {
      git(this.work, ['checkout', '-q', '-b', branch, 'main']);
      for (const c of commits) commit(this.work, c, BASE_DATE + 60 * this.commitCount++);
      git(this.work, ['checkout', '-q', 'main']);
    }
    mkdirSync(dirname(this.bare), { recursive: true });
    git(dirname(this.bare), ['clone', '-q', '--bare', this.work, this.bare]);
    // Serve over dumb-free smart HTTP only; allow shallow fetches of any reachable commit.
    git(this.bare, ['config', 'uploadpack.allowReachableSHA1InWant', 'true']);
    git(this.bare, ['config', 'http.receivepack', 'false']);
  }

  /** Commit `files` on main (null deletes) and push to the served bare repository. */
  commit(files: FixtureFiles, message: string, date?: number): string {
    if (!existsSync(this.work)) throw new Error(`fixture ${this.spec.name} is not built`);
    git(this.work, ['checkout', '-q', 'main']);
    const oid = commit(this.work, { files, message, date }, BASE_DATE + 60 * this.commitCount++);
    git(this.work, ['push', '-q', this.bare, 'main']);
    return oid;
  }
}

/** The fixtures the tests and the e2e suite use unless given others. */
export function defaultFixtures(): FixtureSpec[] {
  const app: FixtureSpec = {
    name: 'small-app',
    commits: [
      {
        message: 'Initial commit',
        files: {
          'README.md': '# Small app\n\nCalculates totals.\n',
          'package.json': '{ "name": "small-app", "version": "1.0.0" }\n',
          'src/app.ts':
            "import { formatMoney } from './util/strings';\n\nexport function calculateTotal(items: number[]): number {\n  let total = 0;\n  for (const item of items) total += item;\n  return total;\n}\n\nexport const label = formatMoney(calculateTotal([1, 2, 3]));\n",
          'src/util/strings.ts':
            'export function formatMoney(n: number): string {\n  return `$${n.toFixed(2)}`;\n}\n',
        },
      },
      {
        message: 'Add a Button component',
        files: {
          'src/components/Button.tsx':
            'export function Button({ label }: { label: string }) {\n  return <button>{label}</button>;\n}\n',
          'NOTES.md': 'The old helper lived in src/helpers.ts.\n',
        },
      },
      {
        message: 'Describe usage and drop the old helper note',
        files: {
          'README.md':
            '# Small app\n\nCalculates totals.\n\n## Usage\n\nCall `calculateTotal` with a list of prices.\n',
          'NOTES.md': null,
          'docs/usage.md': 'Pass numbers, get a total.\n',
        },
      },
    ],
    branches: {
      dev: [
        {
          message: 'Work in progress on dev',
          files: { 'src/dev-only.ts': 'export const devOnly = true;\n' },
        },
      ],
    },
  };
  return [
    app,
    { ...app, name: 'private-app', token: 'quarry-test-token' },
    { name: 'big-app', commits: [{ message: 'Many files', files: bigFiles(400) }] },
    diffApp(),
  ];
}

/**
 * Files with varied, poorly compressible content so a pack is large enough (~1 MB) that
 * a throttled or cut transfer is observably "midway".
 */
export function bigFiles(count: number): FixtureFiles {
  const files: FixtureFiles = {};
  let seed = 42;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed;
  };
  for (let i = 0; i < count; i++) {
    const lines: string[] = [];
    for (let l = 0; l < 60; l++)
      lines.push(
        `export const v${i}_${l} = '${rand().toString(36)}${rand().toString(36)}${rand().toString(36)}';`,
      );
    files[`src/mod${Math.floor(i / 50)}/file${i}.ts`] = lines.join('\n') + '\n';
  }
  return files;
}

/** A TypeScript file edited by two authors over three commits: diffs, blame and file history (e2e/diff-blame.spec.ts). */
export function diffApp(): FixtureSpec {
  const ada = { name: 'Ada Lovelace', email: 'ada@quarry.test' };
  const grace = { name: 'Grace Hopper', email: 'grace@quarry.test' };
  const calc = (body: string[]) => body.join('\n') + '\n';
  return {
    name: 'diff-app',
    commits: [
      {
        message: 'Add the calculator',
        author: ada,
        files: {
          'README.md': '# diff-app\n\nSums prices.\n',
          'src/calc.ts': calc([
            '// Prices are in cents.',
            'export function total(prices: number[]): number {',
            '  let total = 0;',
            '  for (const price of prices) total += price;',
            '  return total;',
            '}',
            '',
            'export const currency = "EUR";',
          ]),
        },
      },
      {
        message: 'Rename total to sum and add an average',
        author: grace,
        files: {
          'src/calc.ts': calc([
            '// Prices are in cents.',
            'export function total(prices: number[]): number {',
            '  let sum = 0;',
            '  for (const price of prices) sum += price;',
            '  return sum;',
            '}',
            '',
            'export function average(prices: number[]): number {',
            '  return prices.length ? total(prices) / prices.length : 0;',
            '}',
            '',
            'export const currency = "EUR";',
          ]),
        },
      },
      {
        message: 'Describe the currency',
        author: ada,
        files: {
          'README.md': '# diff-app\n\nSums prices in euros.\n',
          'src/calc.ts': calc([
            '// Prices are in cents.',
            'export function total(prices: number[]): number {',
            '  let sum = 0;',
            '  for (const price of prices) sum += price;',
            '  return sum;',
            '}',
            '',
            'export function average(prices: number[]): number {',
            '  return prices.length ? total(prices) / prices.length : 0;',
            '}',
            '',
            '/** Every amount is in euros. */',
            'export const currency = "EUR";',
          ]),
        },
      },
    ],
  };
}
