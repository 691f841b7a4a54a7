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
  });

  it('splits filter lists', () => {
    expect(splitList(' ts, tsx  js,')).toEqual(['ts', 'tsx', 'js']);
  });
});
