import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_PATH_CHARS, MAX_QUERY_CHARS, queryTooLongMessage } from '../core/limits';
import {
  clippedMessage,
  clipText,
  DEFAULT_VIEW,
  parseRepoKey,
  parseViewState,
  readAddressParams,
  readViewState,
  serializeViewState,
  splitList,
  type ViewState,
} from './url-state';

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
        order: 'path',
        caseSensitive: true,
        wholeWord: true,
        include: 'src/**',
        exclude: '*.test.ts',
        ext: 'ts,tsx',
        file: 'src/a b.ts',
        line: 42,
      },
      url: '?repo=recent%3Aab12&q=a+b%26c&mode=regex&order=path&case=1&word=1&include=src%2F**&exclude=*.test.ts&ext=ts%2Ctsx&file=src%2Fa+b.ts&line=42',
    },
    {
      name: 'a clone with its URL and ref (a shared link can offer to clone it)',
      state: {
        ...DEFAULT_VIEW,
        repos: ['git:host-app@v1'],
        clone: 'http://host/app.git',
        cref: 'v1',
        view: 'history',
      },
      url: '?repo=git%3Ahost-app%40v1&clone=http%3A%2F%2Fhost%2Fapp.git&cref=v1&view=history',
    },
    {
      name: 'several roots, in order (one repo= each)',
      state: {
        ...DEFAULT_VIEW,
        repos: ['demo', 'git:lib-1', 'recent:ab12'],
        clone: 'http://host/lib.git',
        file: 'lib/src/a.ts',
      },
      url: '?repo=demo&repo=git%3Alib-1&repo=recent%3Aab12&clone=http%3A%2F%2Fhost%2Flib.git&file=lib%2Fsrc%2Fa.ts',
    },
    {
      name: "the caret's line and column (a jump's place in the history)",
      state: { ...DEFAULT_VIEW, file: 'src/a.ts', line: 12, col: 5 },
      url: '?file=src%2Fa.ts&line=12&col=5',
    },
    {
      name: 'navigation, a diff, blame and file history',
      state: {
        ...DEFAULT_VIEW,
        file: 'src/a.ts',
        line: 7,
        sym: 'parseQuery',
        nav: 'refs',
        diff: 'worktree',
        dview: 'inline',
        blame: true,
        fhist: true,
        md: 'source',
      },
      url: '?file=src%2Fa.ts&line=7&sym=parseQuery&nav=refs&diff=worktree&dview=inline&blame=1&fhist=1&md=source',
    },
  ];
  for (const c of cases) {
    it(`round-trips ${c.name}`, () => {
      expect(serializeViewState(c.state)).toBe(c.url);
      expect(parseViewState(c.url)).toEqual(c.state);
    });
  }

  it('reads every search mode, Hybrid its own', () => {
    for (const mode of ['text', 'regex', 'ranked', 'semantic', 'hybrid'] as const) {
      expect(parseViewState(`?q=x&mode=${mode}`).mode).toBe(mode);
      expect(parseViewState(serializeViewState({ ...DEFAULT_VIEW, q: 'x', mode })).mode).toBe(mode);
    }
  });

  it('ignores junk', () => {
    expect(parseViewState('?mode=lisp&line=-3&case=yes&order=size')).toEqual(DEFAULT_VIEW);
    // relevance is the default order: never written
    expect(parseViewState('?order=relevance')).toEqual(DEFAULT_VIEW);
    expect(serializeViewState({ ...DEFAULT_VIEW, q: 'x', order: 'relevance' })).toBe('?q=x');
    expect(serializeViewState({ ...DEFAULT_VIEW, line: 5 })).toBe(''); // a line needs a file
    expect(serializeViewState({ ...DEFAULT_VIEW, file: 'a.ts', col: 5 })).toBe('?file=a.ts'); // a column needs a line
    expect(parseViewState('?file=a.ts&col=5').col).toBe(0);
    expect(parseViewState('?file=a.ts&line=2&col=-1').col).toBe(0);
    // a diff, blame, file history and a Markdown mode belong to an open file
    expect(serializeViewState({ ...DEFAULT_VIEW, diff: 'abc', blame: true, fhist: true, md: 'source' })).toBe(
      '',
    );
    expect(parseViewState('?nav=sideways&dview=up&blame=yes')).toEqual(DEFAULT_VIEW);
    // a clone URL only travels with a git: repository
    expect(
      serializeViewState({ ...DEFAULT_VIEW, repos: ['demo'], clone: 'http://host/app.git', cref: 'v1' }),
    ).toBe('?repo=demo');
  });

  it('reads every kind of repository key, and junk as unknown', () => {
    const cases: Array<[string, ReturnType<typeof parseRepoKey>]> = [
      ['demo', { kind: 'demo' }],
      ['none', { kind: 'none' }],
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

  it('cuts a text field over MAX_QUERY_CHARS to the cap and says so with the engine message', () => {
    const q = 'x'.repeat(300_000);
    const { state, overlong } = readViewState(
      `?repo=demo&q=${q}&cq=ok&fq=${'y'.repeat(MAX_QUERY_CHARS + 1)}`,
    );
    expect(state.q).toBe(q.slice(0, MAX_QUERY_CHARS));
    expect(state.cq).toBe('ok');
    expect(state.fq).toHaveLength(MAX_QUERY_CHARS);
    expect(overlong.map((o) => [o.field, o.length])).toEqual([
      ['q', 300_000],
      ['fq', MAX_QUERY_CHARS + 1],
    ]);
    expect(overlong[0].message).toBe(
      `${queryTooLongMessage('The search query', 300_000)}; only its first 10,000 characters are used.`,
    );
    expect(overlong[0].message).toBe(
      'The search query is too long: 300000 characters (the limit is 10000); only its first 10,000 characters are used.',
    );
    // the cut state is what the address then holds
    expect(serializeViewState(state).length).toBeLessThan(2 * MAX_QUERY_CHARS + 100);
    expect(parseViewState(serializeViewState(state))).toEqual(state);
  });

  it('keeps a query at the cap as it is', () => {
    const q = 'z'.repeat(MAX_QUERY_CHARS);
    expect(readViewState(`?q=${q}`)).toEqual({ state: { ...DEFAULT_VIEW, q }, overlong: [] });
  });

  it('drops a file path over MAX_PATH_CHARS rather than open a cut one', () => {
    const { state, overlong } = readViewState(`?file=${'a/'.repeat(MAX_PATH_CHARS)}&line=3`);
    expect(state.file).toBe('');
    expect(state.line).toBe(3);
    expect(overlong).toEqual([
      {
        field: 'file',
        length: 2 * MAX_PATH_CHARS,
        message: expect.stringContaining('The file path is too long: 8192 characters (the limit is 4096)'),
      },
    ]);
  });

  it('reads an address as URLSearchParams does', () => {
    const grouped = (search: string) => {
      const out = new Map<string, string[]>();
      for (const [k, v] of new URLSearchParams(search)) out.set(k, [...(out.get(k) ?? []), v]);
      return out;
    };
    const values = (search: string) =>
      new Map([...readAddressParams(search)].map(([k, list]) => [k, list.map((e) => e.value)]));
    for (const search of [
      '',
      '?',
      '?a=1&b=2&a=3',
      '?q=a+b%26c&x',
      '?q=%E2%80%AEx&bad=%zz%e2%80&=v&k=',
      '?q=%F0%9F%98%80',
      'q=no-question-mark',
    ]) {
      expect(values(search), search).toEqual(grouped(search));
    }
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('q', 'repo', 'file', 'x y', '%71'), fc.string({ unit: 'binary' }))),
        (pairs) => {
          const search = `?${new URLSearchParams(pairs).toString()}`;
          expect(values(search)).toEqual(grouped(search));
          for (const list of readAddressParams(search).values())
            for (const e of list) expect(e.length).toBe(e.value.length);
        },
      ),
    );
  });

  it('decodes only the start of an over-long value, and counts its length', () => {
    const rlo = '\u202E'.repeat(100_000);
    const [q] = readAddressParams(`?q=${encodeURIComponent(rlo)}`).get('q')!;
    expect(q.length).toBe(100_000);
    expect(q.value).toBe(rlo.slice(0, MAX_QUERY_CHARS));
    const mixed = 'a😀é+ '.repeat(50_000);
    const [m] = readAddressParams(`?q=${encodeURIComponent(mixed)}`).get('q')!;
    expect(m.length).toBe(mixed.length);
    expect(m.value).toBe(clipText(mixed));
    const { state, overlong } = readViewState(`?q=${encodeURIComponent(mixed)}`);
    expect(state.q).toBe(clipText(mixed));
    expect(overlong[0].length).toBe(mixed.length);
  });

  it('never cuts inside a surrogate pair', () => {
    expect(clipText('ab😀c', 3)).toBe('ab');
    expect(clipText('ab😀c', 4)).toBe('ab😀');
    expect(clipText('abc', 3)).toBe('abc');
    expect(clippedMessage('The search query', 10_001)).toBe(
      'The search query is too long: 10001 characters (the limit is 10000); only its first 10,000 characters are used.',
    );
  });

  it('splits filter lists', () => {
    expect(splitList(' ts, tsx  js,')).toEqual(['ts', 'tsx', 'js']);
  });
});
