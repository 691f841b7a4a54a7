import './node-shims.testutil';
import { openDB } from 'idb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultFixtures, startGitServer, type GitServer } from '../../../e2e/git-server/server';
import { QuarryError } from '../../core/errors';
import {
  cloneRepo,
  deleteRepo,
  fetchUpdates,
  gitFileSource,
  gitStorage,
  listRepos,
  repoDir,
  repoHistory,
  storageEstimate,
} from './index';
import { rejectionOf } from '../../../test/rejection';

let server: GitServer;

beforeAll(async () => {
  const fixtures = defaultFixtures();
  const app = fixtures.find((f) => f.name === 'small-app')!;
  server = await startGitServer({
    fixtures: [...fixtures, { ...app, name: 'update-app' }, { ...app, name: 'history-app' }],
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

async function exists(path: string): Promise<boolean> {
  try {
    await gitStorage().fs.promises.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function storedBlobs(): Promise<number> {
  const db = await openDB('quarry-git', 1);
  const n = await db.count('quarry-git_files');
  db.close();
  return n;
}

const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('git adapter over a local git http-backend', { timeout: 120_000 }, () => {
  it('clones a fixture: files readable through gitFileSource, a library entry, progress phases', async () => {
    const phases = new Set<string>();
    const record = await cloneRepo({
      url: server.repoUrl('small-app'),
      onProgress: (p) => phases.add(p.phase),
    });
    expect(record).toMatchObject({
      name: 'small-app',
      branch: 'main',
      source: 'clone',
      depth: 1,
      fileCount: 6,
    });
    expect(record.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(record.sizeBytes).toBeGreaterThan(0);
    expect(phases.has('Updating workdir')).toBe(true);
    // Plain data: survives structured clone unchanged.
    expect(structuredClone(record)).toEqual(record);

    const source = gitFileSource(record.id);
    expect((await source.list('')).map((e) => e.name)).toEqual([
      '.git',
      'README.md',
      'docs',
      'package.json',
      'src',
    ]);
    expect(text(await source.read('src/util/strings.ts'))).toContain('formatMoney');
    const st = await source.stat('README.md');
    expect(st).toMatchObject({ kind: 'file' });
    expect(st!.size).toBe((await source.read('README.md')).byteLength);
    expect(await source.stat('NOTES.md')).toBeNull();
    expect((await listRepos()).map((r) => r.id)).toContain(record.id);
  });

  it('fetchUpdates after a pushed commit reports changed and removed paths and refreshes the tree', async () => {
    const record = await cloneRepo({ url: server.repoUrl('update-app') });
    const source = gitFileSource(record.id);
    const before = await source.stat('package.json');
    const newOid = server.commitToFixture(
      'update-app',
      {
        'src/feature.ts': 'export const brandNewFeature = 42;\n',
        'README.md': '# Changed\n',
        'docs/usage.md': null,
      },
      'Add feature',
    );
    const res = await fetchUpdates(record.id);
    expect(res.commit).toBe(newOid);
    expect(res.previousCommit).toBe(record.commit);
    expect(res.changedPaths.sort()).toEqual(['README.md', 'src/feature.ts']);
    expect(res.removedPaths).toEqual(['docs/usage.md']);
    expect(text(await source.read('src/feature.ts'))).toContain('brandNewFeature');
    expect(await source.stat('docs/usage.md')).toBeNull();
    // Untouched files keep their mtime, so a (size, mtime) refresh skips them.
    expect((await source.stat('package.json'))!.mtimeMs).toBe(before!.mtimeMs);
    const again = await fetchUpdates(record.id);
    expect(again).toMatchObject({ changedPaths: [], removedPaths: [], commit: newOid });
    expect((await listRepos()).find((r) => r.id === record.id)!.commit).toBe(newOid);
  });

  it('404 -> repository not found, nothing registered', async () => {
    const err = await rejectionOf(cloneRepo({ url: server.repoUrl('no-such-repo') }));
    expect(err.code).toBe('NotFound');
    expect(err.message).toContain('repository not found');
    expect((await listRepos()).some((r) => r.url.includes('no-such-repo'))).toBe(false);
  });

  it('401 -> authentication required; the token makes it work', async () => {
    const err = await rejectionOf(cloneRepo({ url: server.repoUrl('private-app') }));
    expect(err.code).toBe('AuthRequired');
    expect(err.message).toContain('authentication required');
    expect(err.data.needsToken).toBe(true);
    const wrong = await rejectionOf(cloneRepo({ url: server.repoUrl('private-app'), token: 'wrong' }));
    expect(wrong.code).toBe('AuthRequired');
    expect(wrong.data.tokenRejected).toBe(true);
    const record = await cloneRepo({ url: server.repoUrl('private-app'), token: 'quarry-test-token' });
    expect(record.fileCount).toBe(6);
    expect(JSON.stringify(record)).not.toContain('quarry-test-token');
  });

  it('an unknown branch lists the remote branches; a known one clones', async () => {
    const err = await rejectionOf(cloneRepo({ url: server.repoUrl('small-app'), ref: 'nope' }));
    expect(err.code).toBe('NotFound');
    expect(err.data.branches).toEqual(['dev', 'main']);
    expect(err.message).toContain('dev, main');
    const dev = await cloneRepo({ url: server.repoUrl('small-app'), ref: 'dev' });
    expect(dev.branch).toBe('dev');
    expect(await gitFileSource(dev.id).stat('src/dev-only.ts')).not.toBeNull();
  });

  it('a network failure explains cross-origin requests and suggests the CORS proxy', async () => {
    const err = await rejectionOf(cloneRepo({ url: 'http://127.0.0.1:9/closed.git' }));
    expect(err.code).toBe('NetworkError');
    expect(err.message).toMatch(/cross-origin/);
    expect(err.message).toMatch(/CORS proxy/);
    expect(err.data.suggestCorsProxy).toBe(true);
  });

  it('cancel midway leaves nothing behind, and a retry succeeds', async () => {
    const url = server.repoUrl('big-app');
    const ac = new AbortController();
    let seen = 0;
    const err = await rejectionOf(
      cloneRepo({
        url,
        signal: ac.signal,
        onProgress: (p) => {
          if (p.phase === 'Updating workdir' && ++seen === 50) ac.abort();
        },
      }),
    );
    expect(err.code).toBe('Cancelled');
    expect(seen).toBeGreaterThanOrEqual(50);
    expect((await listRepos()).some((r) => r.name === 'big-app')).toBe(false);
    expect(await exists(repoDir('127.0.0.1-' + server.port + '-big-app'))).toBe(false);
    const record = await cloneRepo({ url });
    expect(record.fileCount).toBe(400);
  });

  it('cancel during the download stops the transfer', async () => {
    const ac = new AbortController();
    const p = cloneRepo({
      url: server.repoUrl('big-app', { slowMs: 50 }),
      signal: ac.signal,
      onProgress: () => undefined,
    });
    setTimeout(() => ac.abort(), 300);
    const err = await rejectionOf(p);
    expect(err.code).toBe('Cancelled');
    expect((await listRepos()).some((r) => r.url.includes('/slow/'))).toBe(false);
  });

  it('the server dying mid-clone gives a clear error and no library entry', async () => {
    const url = server.repoUrl('big-app', { kill: 50_000 });
    const err = await rejectionOf(cloneRepo({ url }));
    expect(err.code).toBe('CloneFailed');
    expect(err.message).toMatch(/broke off after \d+ bytes/);
    expect((await listRepos()).some((r) => r.url.includes('/kill/'))).toBe(false);
    const leftovers = (await gitStorage().fs.promises.readdir('/repos')) as string[];
    expect(leftovers.some((n) => n.includes('kill'))).toBe(false);
  });

  it('history lists the fixture commits with changed files', async () => {
    const record = await cloneRepo({ url: server.repoUrl('history-app'), depth: 0 });
    const h = await repoHistory(record.id);
    expect(h.branch).toBe('main');
    expect(h.shallow).toBe(false);
    expect(h.commits.map((c) => c.message)).toEqual([
      'Describe usage and drop the old helper note',
      'Add a Button component',
      'Initial commit',
    ]);
    expect(h.commits[0].changedFiles).toEqual([
      { path: 'NOTES.md', type: 'delete' },
      { path: 'README.md', type: 'modify' },
      { path: 'docs/usage.md', type: 'add' },
    ]);
    expect(h.commits[2].changedFiles.map((f) => f.type)).toEqual(['add', 'add', 'add', 'add']);
    expect(h.commits[0]).toMatchObject({ author: 'Quarry Fixture', email: 'fixture@quarry.test' });
    expect(h.commits[2].date).toBe(1_767_225_600_000);
    expect(structuredClone(h)).toEqual(h);
    // A shallow clone marks where its history stops.
    const shallow = await repoHistory(
      (await listRepos()).find((r) => r.name === 'small-app' && r.branch === 'main')!.id,
    );
    expect(shallow.commits).toHaveLength(1);
    expect(shallow.commits[0].parentMissing).toBe(true);
    expect(shallow.shallow).toBe(true);
  });

  it('running out of quota is a clear error and keeps what was already stored', async () => {
    const before = await listRepos();
    const kept = before.find((r) => r.name === 'small-app' && r.branch === 'main')!;
    const proto = (
      globalThis as unknown as { IDBObjectStore: { prototype: { put: (...a: unknown[]) => unknown } } }
    ).IDBObjectStore.prototype;
    const put = proto.put;
    proto.put = function (this: { name: string }, ...args: unknown[]) {
      if (this.name === 'quarry-git_files')
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    };
    let err: QuarryError;
    try {
      err = await rejectionOf(cloneRepo({ url: server.repoUrl('history-app'), ref: 'dev' }));
    } finally {
      proto.put = put;
    }
    expect(err.code).toBe('QuotaExceeded');
    expect(err.message).toMatch(/storage is full/);
    expect((await listRepos()).map((r) => r.id).sort()).toEqual(before.map((r) => r.id).sort());
    expect(text(await gitFileSource(kept.id).read('src/app.ts'))).toContain('calculateTotal');
    // And the next clone works again.
    const again = await cloneRepo({ url: server.repoUrl('history-app'), ref: 'dev' });
    expect(again.branch).toBe('dev');
  });

  it('delete frees the stored files and the library entry', async () => {
    const record = await cloneRepo({ url: server.repoUrl('big-app', { slowMs: 0 }) });
    const blobsBefore = await storedBlobs();
    const est = await storageEstimate();
    expect(est.reposBytes).toBeGreaterThanOrEqual(record.sizeBytes);
    await deleteRepo(record.id);
    expect(await exists(repoDir(record.id))).toBe(false);
    expect((await listRepos()).some((r) => r.id === record.id)).toBe(false);
    const blobsAfter = await storedBlobs();
    expect(blobsBefore - blobsAfter).toBeGreaterThanOrEqual(400);
    expect((await storageEstimate()).reposBytes).toBe(est.reposBytes - record.sizeBytes);
  });
});
