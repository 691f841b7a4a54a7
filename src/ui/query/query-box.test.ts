import { describe, expect, it } from 'vitest';
import { compileGlob } from '../../core/walk/glob';
import { compilePathRule } from '../../core/grep/compile-request';
import { parseQuery } from '../../core/query/parse';
import { planQuery } from '../../core/query/plan';
import { analyzeQuery, locateMessage, type QueryContext } from './query-analysis';
import { querySpans } from './query-spans';
import { applyCompletion, completeQuery, languagesOf, type CompletionSources } from './query-complete';
import { legacyFilterText, withLegacyFilters } from './legacy-filters';
import { appendFilter } from './FilterMenu';
import { queryWindow } from './QueryProblem';
import { historySummary, shallowNote } from './history-summary';
import { lineRow } from '../viewer/diff-line';
import { buildRows } from '../../core/diff/rows';
import { diffTexts } from '../../core/diff/text-diff';

const CTX: QueryContext = {
  mode: 'literal',
  caseSensitive: false,
  wholeWord: false,
  roots: [],
  defaultCount: 100,
};
const SOURCES: CompletionSources = {
  languages: languagesOf(['src/a.ts', 'src/b.ts', 'src/c.tsx', 'README.md', 'Makefile', 'x.unknown']),
  roots: ['app', 'lib'],
  folders: ['src', 'docs'],
};

function problemOf(text: string, ctx: Partial<QueryContext> = {}) {
  const a = analyzeQuery(text, { ...CTX, ...ctx });
  if (a.kind !== 'error') throw new Error(`no error for ${text}: ${a.kind}`);
  return a.problem;
}

describe('analyzeQuery', () => {
  it('plans a valid query, says empty for blanks, waits for roots a root: needs', () => {
    expect(analyzeQuery('  ', CTX)).toEqual({ kind: 'empty' });
    const a = analyzeQuery('total lang:typescript', CTX);
    expect(a.kind === 'ok' && a.plan.type === 'file' && a.plan.request?.pattern).toBe('total');
    expect(analyzeQuery('x root:app', { ...CTX, roots: null }).kind).toBe('pending');
    expect(analyzeQuery('type:commit fix', CTX)).toMatchObject({ kind: 'ok', plan: { type: 'commit' } });
  });

  it('a near-miss filter name: the span, and fixes that use the name or quote the text', () => {
    const p = problemOf('foo lnag:go');
    expect(p.column).toBe(5);
    expect(p.span).toEqual({ start: 4, end: 11 });
    expect(p.fixes.map((f) => [f.label, f.text])).toEqual([
      ['Use lang:', 'foo lang:go'],
      ['Search "lnag:go" as text', 'foo "lnag:go"'],
    ]);
    expect(p.hint).toBeNull();
  });

  it('a closed value near a real one is replaced in place', () => {
    const p = problemOf('type:symbl parse');
    expect(p.span).toEqual({ start: 5, end: 10 });
    expect(p.fixes[0]).toMatchObject({ label: 'Use type:symbol', text: 'type:symbol parse', caret: 11 });
  });

  it("the planner's errors are located from their message and fixed", () => {
    const lang = problemOf('total lang:pyhton');
    expect(lang.span).toEqual({ start: 6, end: 17 });
    expect(lang.column).toBe(7);
    expect(lang.fixes[0]).toMatchObject({ text: 'total lang:python' });
    const author = problemOf('fix author:ann');
    expect(author.span).toEqual({ start: 4, end: 14 });
    expect(author.fixes[0]).toMatchObject({ label: 'Add type:commit', text: 'fix author:ann type:commit' });
    const diff = problemOf('type:commit x file:src');
    expect(diff.fixes[0]).toMatchObject({ text: 'type:diff x file:src' });
    expect(problemOf('x root:ap', { roots: ['app', 'lib'] }).fixes[0].text).toBe('x root:app');
  });

  it('operators and parentheses: quote them, or add the missing one; hints stay text', () => {
    expect(problemOf('a OR').fixes.map((f) => f.text)).toEqual(['a "OR"']);
    expect(problemOf('root (').fixes.map((f) => f.text)).toEqual(['root "("', 'root ( )']);
    const hint = problemOf('x count:many');
    expect(hint.fixes).toEqual([]);
    expect(hint.hint).toMatch(/count:100/);
    expect(locateMessage('a b', 'nothing here')).toBeNull();
  });
});

describe('querySpans', () => {
  it('covers the text exactly, with kinds from the tokenizer and the planner error', () => {
    const text = 'foo  -file:src/ OR "a b" /x+/';
    const spans = querySpans(text, 'literal');
    expect(spans.map((s) => text.slice(s.start, s.end)).join('')).toBe(text);
    expect(spans.filter((s) => s.kind !== 'space').map((s) => [text.slice(s.start, s.end), s.kind])).toEqual([
      ['foo', 'term'],
      ['-', 'operator'],
      ['file:', 'filter'],
      ['src/', 'value'],
      ['OR', 'operator'],
      ['"a b"', 'quoted'],
      ['/x+/', 'regex'],
    ]);
    expect(querySpans('x', 'regex')[0].kind).toBe('regex');
    const bad = querySpans('x lang:zz', 'literal', { start: 2, end: 9 });
    expect(bad.filter((s) => s.kind === 'error').length).toBe(2);
    expect(querySpans('a (', 'literal').some((s) => s.kind === 'error')).toBe(true);
  });

  it('a filter with no value yet is the filter while completion offers values at it, an error otherwise', () => {
    const kinds = (completingAt: number | null) =>
      querySpans('x lang:', 'literal', null, completingAt)
        .filter((s) => s.kind !== 'space')
        .map((s) => s.kind);
    expect(kinds(7)).toEqual(['term', 'filter']);
    expect(kinds(null)).toEqual(['term', 'error']);
    expect(kinds(1)).toEqual(['term', 'error']); // completing elsewhere
  });
});

describe('completion', () => {
  it('offers filters for a key prefix, then the values, accepting with the caret placed', () => {
    const keys = completeQuery('total la', 8, SOURCES)!;
    expect(keys).toMatchObject({ kind: 'filter', from: 6, to: 8 });
    expect(keys.items.map((i) => i.label)).toEqual(['lang:']);
    const typed = applyCompletion('total la', keys, keys.items[0]);
    expect(typed).toEqual({ text: 'total lang:', caret: 11 });
    const values = completeQuery(typed.text, typed.caret, SOURCES)!;
    expect(values.items.map((i) => i.label)).toEqual(['typescript', 'markdown', 'tsx']);
    expect(values.items[0].detail).toBe('TypeScript · 2 files');
    expect(applyCompletion(typed.text, values, values.items[0])).toEqual({
      text: 'total lang:typescript ',
      caret: 22,
    });
    expect(completeQuery('-fi', 3, SOURCES)!.items[0].insert).toBe('-file:');
    expect(completeQuery('pa', 2, SOURCES)!.items[0].label).toBe('file:');
  });

  it('values per filter: roots, folders, closed sets; none inside quotes or a word', () => {
    expect(completeQuery('root:', 5, SOURCES)!.items.map((i) => i.label)).toEqual(['app', 'lib']);
    const file = completeQuery('x file:s', 8, SOURCES)!;
    expect(file.items.map((i) => i.label)).toEqual(['src/', 'docs/']);
    expect(applyCompletion('x file:s', file, file.items[0])).toEqual({ text: 'x file:src/', caret: 11 });
    expect(completeQuery('type:', 5, SOURCES)!.items.map((i) => i.label)).toEqual([
      'file',
      'symbol',
      'commit',
      'diff',
    ]);
    expect(completeQuery('type:diff', 9, SOURCES)).toBeNull();
    expect(completeQuery('case:', 5, SOURCES)!.items.map((i) => i.label)).toEqual(['yes', 'no']);
    expect(completeQuery('"a la', 5, SOURCES)).toBeNull();
    expect(completeQuery('lax', 2, SOURCES)).toBeNull();
    expect(completeQuery('OR', 2, SOURCES)).toBeNull();
    expect(completeQuery('author:', 7, SOURCES)).toBeNull();
    expect(completeQuery('lang:', 5, { ...SOURCES, languages: null })).toMatchObject({ loading: true });
  });
});

describe('old links: include, exclude and ext as filters', () => {
  const same = (include: string, exclude: string, ext: string, paths: string[]) => {
    const q = withLegacyFilters('needle', include, exclude, ext);
    const plan = planQuery(parseQuery(q), { caseSensitive: true, defaultCount: 10 });
    if (plan.type !== 'file' || !plan.request) throw new Error('not a file plan');
    const tests = (plan.request.pathRules ?? []).map(compilePathRule);
    const globs = (list: string) =>
      list
        .split(',')
        .filter(Boolean)
        .map((g) => compileGlob(g.trim(), 'x'));
    const inc = globs(include);
    const exc = globs(exclude);
    const exts = ext
      .split(',')
      .map((e) => e.trim().replace(/^\./, ''))
      .filter(Boolean);
    for (const p of paths) {
      const before =
        (!inc.length || inc.some((t) => t(p))) &&
        !exc.some((t) => t(p)) &&
        (!exts.length || exts.includes(p.slice(p.lastIndexOf('.') + 1)));
      expect(
        tests.every((t) => t(p)),
        `${q} on ${p}`,
      ).toBe(before);
    }
    return q;
  };
  // (a file named `src` at the root would differ: `src/**` matched it, `{src/**,…}` does not)
  const PATHS = ['a.ts', 'src/a.ts', 'src/b.tsx', 'src/x/c.md', 'docs/a.md', 'lib/src', 'README.md'];

  it('convert to filters that select the same files', () => {
    expect(same('src/**', '', '', PATHS)).toBe('needle file:src/**');
    expect(same('src/**, *.md', '*.tsx', '', PATHS)).toBe('needle file:{src/**,*.md,**/*.md} -file:*.tsx');
    expect(same('', '', 'ts, .tsx', PATHS)).toBe('needle file:*.{ts,tsx}');
    same('src', '', '', PATHS);
    same('', 'docs/a.md', 'md', PATHS);
    same('*.ts,*.md', '', '', PATHS);
    expect(legacyFilterText('', '', '')).toBe('');
    expect(withLegacyFilters('', 'src/(x)', '', '')).toBe('file:^src/\\(x\\)$');
    expect(parseQuery(withLegacyFilters('', 'a b', '', '')).filters.map((f) => f.value)).toEqual(['{a,b}']);
  });
});

describe('the rest of the box', () => {
  it('"+ Filter" appends a filter; a key waits for its value', () => {
    expect(appendFilter('total  ', '-file:')).toEqual({ text: 'total -file:', caret: 12 });
    expect(appendFilter('', 'type:commit')).toEqual({ text: 'type:commit ', caret: 12 });
  });

  it('the error line: a window around the span with the caret under it', () => {
    expect(queryWindow('foo lnag:go', 4, 11)).toEqual({ before: 'foo ', at: 'lnag:go', after: '', pad: 4 });
    const long = `${'a'.repeat(100)} OR`;
    const w = queryWindow(long, 101, 103);
    expect(w.before.startsWith('…')).toBe(true);
    expect((w.before + w.at).length - w.at.length).toBe(w.pad);
  });

  it('history search says its progress, its end and how far back a shallow log reached', () => {
    const stats = {
      searched: 420,
      total: 10_000,
      matched: 3,
      shallow: false,
      oldest: Date.UTC(2024, 2, 1),
      limitHit: false,
      elapsedMs: 12.4,
      ending: 'complete' as const,
    };
    const progress = {
      phase: 'searching' as const,
      label: '',
      files: 420,
      totalFiles: 10_000,
      bytes: 0,
      totalBytes: 0,
    };
    expect(historySummary({ state: 'running', progress }, 'commit')).toBe('Searched 420 of 10,000 commits…');
    expect(historySummary({ state: 'done', stats }, 'commit')).toBe(
      '3 commits match (searched 420 of 10,000 commits, 12 ms)',
    );
    expect(historySummary({ state: 'done', stats: { ...stats, matched: 1 } }, 'diff')).toMatch(
      /^1 commit changed matching lines/,
    );
    expect(historySummary({ state: 'done', stats: { ...stats, ending: 'cancelled' } }, 'diff')).toMatch(
      /^Cancelled after searching 420 of 10,000 commits/,
    );
    expect(shallowNote(stats)).toBeNull();
    expect(shallowNote({ ...stats, shallow: true })).toBe('History is shallow: searched back to 2024-03-01.');
  });

  it('a diff opened at a line finds its change, either side', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const after = 'a\nb\nc\nd\nE\nf\ng\nh\ni\nj\nk\n';
    const d = diffTexts(before, after);
    const { rows } = buildRows(d.ops, d.words, 'inline');
    const at = lineRow(rows, 5);
    const row = rows[at];
    expect(row.kind === 'line' && row.block >= 0).toBe(true);
    expect(rows[lineRow(rows, 11)]).toMatchObject({ right: { line: 10 } });
    expect(lineRow(rows, 99)).toBe(-1);
  });
});
