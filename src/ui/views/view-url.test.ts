import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, parseViewState, serializeViewState } from '../url-state';

describe('analysis views in the URL', () => {
  const cases = [
    { state: { ...DEFAULT_VIEW, view: 'components' as const, cq: 'Card' }, url: '?view=components&cq=Card' },
    {
      state: { ...DEFAULT_VIEW, view: 'routes' as const, rq: 'blog', rtype: 'page', rshow: 'table' as const },
      url: '?view=routes&rq=blog&rtype=page&rshow=table',
    },
    {
      state: {
        ...DEFAULT_VIEW,
        repos: ['demo'],
        view: 'features' as const,
        feature: 'new checkout',
        fq: 'launch',
      },
      url: '?repo=demo&view=features&feature=new+checkout&fq=launch',
    },
  ];
  for (const c of cases) {
    it(`round-trips ${c.url}`, () => {
      expect(serializeViewState(c.state)).toBe(c.url);
      expect(parseViewState(c.url)).toEqual(c.state);
    });
  }
  it('falls back to search for an unknown view', () => {
    expect(parseViewState('?view=nope&rshow=list').view).toBe('search');
    expect(parseViewState('?rshow=list').rshow).toBe('tree');
  });
});
