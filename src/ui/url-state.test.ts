import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, parseRepoKey, parseViewState, serializeViewState, splitList, type ViewState } from './url-state';

describe('view state in the URL', () => {
  const cases: { name: string; state: ViewState; url: string }[] = [
    { name: 'defaults', state: DEFAULT_VIEW, url: '' },
    { name: 'demo only', state: { ...DEFAULT_VIEW, repos: ['demo'] }, url: '?repo=demo' },
    {
      name: 'everything',
      state: {
        ...DEFAULT_VIEW,
        repos: ['recent:ab12'],
        q: 'a b&c',
        mode: 'regex',
        caseSensitive: true,
        wholeWord: true,
        include: 'src/**',
        exclude: '*.test.ts',
        ext: 'ts,tsx',
        file: 'src/a b.ts',
        line: 42,
      },
      url: '?repo=recent%3Aab12&q=a+b%26c&mode=regex&case=1&word=1&include=src%2F**&exclude=*.test.ts&ext=ts%2Ctsx&file=src%2Fa+b.ts&line=42',
    },
    {
      name: 'a clone with its URL and ref (a shared link can offer to clone it)',
      state: { ...DEFAULT_VIEW, repos: ['git:host-app@v1'], clone: 'http://host/app.git', cref: 'v1', view: 'history' },
      url: '?repo=git%3Ahost-app%40v1&clone=http%3A%2F%2Fhost%2Fapp.git&cref=v1&view=history',
    },
    {
      name: 'several roots, in order (one repo= each)',
      state: { ...DEFAULT_VIEW, repos: ['demo', 'git:lib-1', 'recent:ab12'], clone: 'http://host/lib.git', file: 'lib/src/a.ts' },
      url: '?repo=demo&repo=git%3Alib-1&repo=recent%3Aab12&clone=http%3A%2F%2Fhost%2Flib.git&file=lib%2Fsrc%2Fa.ts',
    },
  ];
  for (const c of cases) {
    it(`round-trips ${c.name}`, () => {
      expect(serializeViewState(c.state)).toBe(c.url);
      expect(parseViewState(c.url)).toEqual(c.state);
    });
  }

  it('ignores junk', () => {
    expect(parseViewState('?mode=lisp&line=-3&case=yes')).toEqual(DEFAULT_VIEW);
    expect(serializeViewState({ ...DEFAULT_VIEW, line: 5 })).toBe(''); // a line needs a file
    // a clone URL only travels with a git: repository
    expect(serializeViewState({ ...DEFAULT_VIEW, repos: ['demo'], clone: 'http://host/app.git', cref: 'v1' })).toBe('?repo=demo');
  });

  it('reads every kind of repository key, and junk as unknown', () => {
    const cases: Array<[string, ReturnType<typeof parseRepoKey>]> = [
      ['demo', { kind: 'demo' }],
      ['git:host-app@v1', { kind: 'git', id: 'host-app@v1' }],
      ['recent:ab12', { kind: 'folder', id: 'recent:ab12' }],
      ['snapshot:my folder', { kind: 'snapshot', name: 'my folder' }],
      ['memory:x', { kind: 'snapshot', name: 'x' }],
      ['git:', { kind: 'unknown', key: 'git:' }],
      ['demos', { kind: 'unknown', key: 'demos' }],
      ['<script>', { kind: 'unknown', key: '<script>' }],
    ];
    for (const [key, want] of cases) expect(parseRepoKey(key)).toEqual(want);
  });

  it('splits filter lists', () => {
    expect(splitList(' ts, tsx  js,')).toEqual(['ts', 'tsx', 'js']);
  });
});
