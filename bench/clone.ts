/**
 * Clone benchmark (issue 5): a fixture repository of >= 2,000 files built at bench time from
 * installed npm packages (three + next/dist/server), served by the local git server
 * (git http-backend on 127.0.0.1), cloned
 *   - by native `git clone --depth 1`,
 *   - by Quarry's git adapter (isomorphic-git into lightning-fs on fake-indexeddb: the same
 *     code the browser worker runs),
 *   - by isomorphic-git alone into node:fs (what git itself costs, without the storage layer).
 * Prints medians and ratios; target: the adapter within 3x of native git. Nothing asserts.
 * Standalone: `npx tsx bench/clone.ts` (CLONE_BENCH_RUNS, default 3).
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import * as nodeFs from 'node:fs';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, printTable } from './common';
import type { FixtureFiles } from '../e2e/git-server/fixtures';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..');
const SOURCES: { from: string; as: string }[] = [
  { from: 'node_modules/three', as: 'three' },
  { from: 'node_modules/next/dist/server', as: 'next-server' },
];
const MIN_FILES = 2000;

function collectFiles(): { files: FixtureFiles; count: number; bytes: number } {
  const files: FixtureFiles = {};
  let count = 0;
  let bytes = 0;
  const walk = (dir: string, base: string, as: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full, base, as);
      else if (st.isFile()) {
        const data = readFileSync(full);
        files[`${as}/${relative(base, full)}`] = data;
        count++;
        bytes += data.byteLength;
      }
    }
  };
  for (const s of SOURCES) {
    const dir = join(ROOT, s.from);
    if (nodeFs.existsSync(dir)) walk(dir, dir, s.as);
  }
  return { files, count, bytes };
}

export async function runCloneBench(
  runs = Number(process.env.CLONE_BENCH_RUNS ?? 3),
): Promise<{ nativeMs: number; adapterMs: number; isoNodeFsMs: number; ratio: number; files: number }> {
  console.log(
    '\n== git clone (issue 5): Quarry git adapter vs native git clone --depth 1, local git http-backend',
  );
  const { files, count, bytes } = collectFiles();
  if (count < MIN_FILES)
    throw new Error(
      `clone bench: only ${count} files found in ${SOURCES.map((s) => s.from).join(', ')} (need ${MIN_FILES})`,
    );
  console.log(
    `fixture: ${count} files, ${(bytes / 1e6).toFixed(1)} MB (${SOURCES.map((s) => s.from).join(' + ')})`,
  );

  // Node 20 shims the browser provides natively: IndexedDB and `navigator` (lightning-fs reads navigator.locks).
  await import('fake-indexeddb/auto');
  const g = globalThis as unknown as { navigator?: object };
  const addedNavigator = g.navigator === undefined;
  if (addedNavigator) g.navigator = {};

  const { startGitServer } = await import('../e2e/git-server/server');
  const t0 = performance.now();
  const server = await startGitServer({
    fixtures: [{ name: 'bench-repo', commits: [{ message: 'Bench corpus', files }] }],
  });
  console.log(
    `fixture repository built and served in ${((performance.now() - t0) / 1000).toFixed(1)} s at ${server.url}`,
  );
  const url = server.repoUrl('bench-repo');
  const work = mkdtempSync(join(tmpdir(), 'quarry-clone-bench-'));
  const git = await import('isomorphic-git');
  const http = await import('isomorphic-git/http/web');
  const adapter = await import('../src/adapters/git/index');

  const native: number[] = [];
  const adapterTimes: number[] = [];
  const isoNode: number[] = [];
  let adapterFiles = 0;
  try {
    if (spawnSync('git', ['--version']).status !== 0) throw new Error('native git is not installed');
    for (let i = 0; i < runs; i++) {
      // native git
      const nd = join(work, `native-${i}`);
      let t = performance.now();
      // Async: the server runs in this process, a sync spawn would block it (deadlock).
      await promisify(execFile)('git', ['clone', '-q', '--depth', '1', url, nd]);
      native.push(performance.now() - t);
      rmSync(nd, { recursive: true, force: true });

      // Quarry adapter: isomorphic-git -> lightning-fs -> (fake) IndexedDB
      t = performance.now();
      const record = await adapter.cloneRepo({ url });
      adapterTimes.push(performance.now() - t);
      adapterFiles = record.fileCount;
      await adapter.deleteRepo(record.id);

      // isomorphic-git alone into node:fs
      const id = join(work, `iso-${i}`);
      t = performance.now();
      await git.clone({
        fs: nodeFs,
        http: http.default ?? http,
        dir: id,
        url,
        depth: 1,
        singleBranch: true,
        noTags: true,
        cache: {},
      });
      isoNode.push(performance.now() - t);
      rmSync(id, { recursive: true, force: true });
      (globalThis as { gc?: () => void }).gc?.();
    }
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
    if (addedNavigator) delete g.navigator;
  }
  const nativeMs = median(native);
  const adapterMs = median(adapterTimes);
  const isoNodeFsMs = median(isoNode);
  const ratio = adapterMs / nativeMs;
  printTable([
    ['clone', 'median ms', 'runs (ms)', 'x native'],
    ['native git clone --depth 1', nativeMs.toFixed(0), native.map((x) => x.toFixed(0)).join(' '), '1.00'],
    [
      'Quarry adapter (isomorphic-git + lightning-fs)',
      adapterMs.toFixed(0),
      adapterTimes.map((x) => x.toFixed(0)).join(' '),
      ratio.toFixed(2),
    ],
    [
      'isomorphic-git into node:fs (reference)',
      isoNodeFsMs.toFixed(0),
      isoNode.map((x) => x.toFixed(0)).join(' '),
      (isoNodeFsMs / nativeMs).toFixed(2),
    ],
  ]);
  console.log(
    `adapter checked out ${adapterFiles} files; target: within 3x of native -> ${ratio <= 3 ? 'met' : 'NOT met'} (${ratio.toFixed(2)}x)`,
  );
  return { nativeMs, adapterMs, isoNodeFsMs, ratio, files: count };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runCloneBench();
}
