/**
 * Issue 34, the app's rows in Node: a shared link's `clone=` is offered only when it is an http(s)
 * URL (row 15), and a linked file that is not inside the repository reveals no folder of the
 * Files tree, whose listing would fail (row 9).
 */
import { describe, expect, it } from 'vitest';
import type { WorkspaceDeps } from './workspace/controller';
import { WorkspaceController } from './workspace/controller';
import { revealedDirs } from './tree-paths';
import { DEFAULT_VIEW, isCloneUrl, readViewState, type ViewState } from './url-state';

const REFUSED = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'file:///etc/passwd',
  'data:text/html,<b>x</b>',
  'ftp://host/repo.git',
  'git@github.com:owner/repo.git',
  'ssh://git@host/repo.git',
  'https://',
  '//host/repo.git',
  'owner/repo',
  '',
];

describe('isCloneUrl', () => {
  it('accepts http(s) URLs with a host', () => {
    for (const url of [
      'https://github.com/owner/repo.git',
      'http://127.0.0.1:8174/small-app.git',
      ' https://h/r ',
    ])
      expect(isCloneUrl(url)).toBe(true);
  });

  it('refuses every other scheme, and what is no URL', () => {
    for (const url of REFUSED) expect(isCloneUrl(url), url).toBe(false);
  });

  it('is asked of the address as it is read', () => {
    const { state } = readViewState(`?repo=git:x&clone=${encodeURIComponent('javascript:alert(1)')}`);
    expect(isCloneUrl(state.clone)).toBe(false);
  });
});

/** The controller restoring an address with a clone this browser does not have (no engine work needed). */
async function restoreWith(url: Partial<ViewState>) {
  const view: ViewState = { ...DEFAULT_VIEW, ...url };
  const engine = {
    library: async () => ({ repos: [], storage: {} }),
    recentFolders: async () => [],
  } as unknown as WorkspaceDeps['engine'];
  const controller = new WorkspaceController({ engine, view: { get: () => view, update: () => undefined } });
  await controller.restore();
  return controller.state.notice;
}

describe('a shared link to a clone', () => {
  it('offers an http(s) URL', async () => {
    expect(await restoreWith({ repos: ['git:x'], clone: 'https://host/x.git' })).toMatchObject({
      kind: 'clone-offer',
      url: 'https://host/x.git',
    });
  });

  it('refuses any other URL before offering it, and says why', async () => {
    for (const clone of ['javascript:alert(1)', 'file:///etc/passwd', 'data:text/html,x']) {
      const notice = await restoreWith({ repos: ['git:x'], clone });
      expect(notice).toMatchObject({ kind: 'error', title: 'This link cannot be cloned' });
      expect(notice && 'message' in notice ? notice.message : '').toContain('not an http(s) URL');
    }
  });
});

describe('revealedDirs', () => {
  it("lists a linked file's folders, outermost first", () => {
    expect(revealedDirs('gone/old.ts')).toEqual(['gone']);
    expect(revealedDirs('a/b/c.ts')).toEqual(['a', 'a/b']);
    expect(revealedDirs('top.ts')).toEqual([]);
    expect(revealedDirs('back\\slash.ts')).toEqual([]);
  });

  it('reveals nothing for a path that is not inside the repository', () => {
    for (const p of ['../../etc/passwd', 'a/../../b.ts', './a/b.ts', 'a//b.ts', '/etc/passwd'])
      expect(revealedDirs(p), p).toEqual([]);
  });
});
