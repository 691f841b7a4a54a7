import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, parseViewState, serializeViewState, splitList, type ViewState } from './url-state';

describe('view state in the URL', () => {
  const cases: { name: string; state: ViewState; url: string }[] = [
    { name: 'defaults', state: DEFAULT_VIEW, url: '' },
    { name: 'demo only', state: { ...DEFAULT_VIEW, repo: 'demo' }, url: '?repo=demo' },
    {
      name: 'everything',
      state: {
        ...DEFAULT_VIEW,
        repo: 'recent:ab12',
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
      state: { ...DEFAULT_VIEW, repo: 'git:host-app@v1', clone: 'http://host/app.git', cref: 'v1', view: 'history' },
      url: '?repo=git%3Ahost-app%40v1&clone=http%3A%2F%2Fhost%2Fapp.git&cref=v1&view=history',
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
    expect(serializeViewState({ ...DEFAULT_VIEW, repo: 'demo', clone: 'http://host/app.git', cref: 'v1' })).toBe('?repo=demo');
  });

  it('splits filter lists', () => {
    expect(splitList(' ts, tsx  js,')).toEqual(['ts', 'tsx', 'js']);
  });
});
