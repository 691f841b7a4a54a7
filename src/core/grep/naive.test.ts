/**
 * The fast search paths against the naive reference searcher (naive.testutil.ts: whole file,
 * split lines, a JS RegExp per line), never against the engine's own slow path:
 *   - the literal-line path (literal occurrences found in the bytes, only their lines decoded;
 *     long lines matched in windows around the literals),
 *   - the indexed path (trigram prefilter, candidate files read directly) with segmented long
 *     files and ranged reads, in memory with small segments and through the Node adapter's
 *     pread with the production segment size on files over 32 KiB,
 * each with context lines and maxLineChars.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { NodeFsSource } from '../../adapters/node/fs';
import { CodeIndexService } from '../rank/service';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { naiveLines, naiveSearch, type NaiveRequest } from './naive.testutil';
import { compileMatcher } from './regex';
import { LITERAL_LINES } from './byte-search';
import { RANGED_READS } from './literal-lines';
import { LINE_WINDOWS, literalLineFinders, searchAll } from './search';
import type { GrepMatch, GrepRequest } from './types';

const noChunks = async () => ({ chunkFile: () => [] });
const defaultShare = RANGED_READS.maxShare;
const minBytes = LITERAL_LINES.minBytes;
afterEach(() => {
  RANGED_READS.maxShare = defaultShare;
  LITERAL_LINES.minBytes = minBytes;
});

// Text: ASCII words and punctuation, non-ASCII (2, 3 and 4 UTF-8 bytes), CRLF and lone '\r'.
// No U+212A, U+017F or BOM: outside what the naive searcher's JS RegExp reads as RE2 does.
const commonPiece = fc.constantFrom(
  'a',
  'b',
  'k',
  'K',
  's',
  'S',
  'x',
  ' ',
  ' ',
  '(',
  ')',
  '_',
  '-',
  ',',
  'ab',
  'Ab',
  'abc',
  'foo',
  'Foo',
  'bar',
  'x_y',
  '\n',
  '\n',
  '\r\n',
);
const rarePiece = fc.constantFrom('é', 'É', '€', '😀', 'kés', '\r', 'needle', 'NEEDLE', 'bar_foo', 'foobar');
const piece = fc.oneof({ arbitrary: commonPiece, weight: 6 }, { arbitrary: rarePiece, weight: 1 });
const text = (maxLength: number, minLength = 0) =>
  fc.array(piece, { minLength, maxLength }).map((p) => p.join(''));

const regexAtom = fc.constantFrom(
  'a',
  'b',
  'k',
  's',
  'x',
  'é',
  '€',
  '😀',
  'ab',
  'abc',
  'kés',
  'foo',
  'Foo',
  'bar',
  'needle',
  'A',
  'K',
  'S',
  'x_y',
  '\\(',
  '-',
  '[ab]',
  '[a-k]',
  '[^a ]',
  '[A-Z]',
  '[é€]',
  '\\w',
  '\\d',
  '\\W',
  '(ab|ba)',
  'a|b',
  'foo|bar',
  '(?:k|s)é',
  '(needle|foo)',
);
const literalPattern = fc
  .array(
    fc.constantFrom(
      'a',
      'b',
      'k',
      'K',
      's',
      ' ',
      '(',
      '_',
      'é',
      'É',
      '€',
      '😀',
      'ab',
      'Ab',
      'abc',
      'foo',
      'Foo',
      'needle',
      'x_y',
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((p) => p.join(''));
const caseMode = fc.constantFrom<NonNullable<NaiveRequest['caseMode']>>('sensitive', 'insensitive', 'smart');
const request = fc.oneof(
  fc.record({
    pattern: fc.array(regexAtom, { minLength: 1, maxLength: 3 }).map((a) => a.join('')),
    mode: fc.constant<'regex'>('regex'),
    caseMode,
    wholeWord: fc.boolean(),
  }),
  fc.record({
    pattern: literalPattern,
    mode: fc.constant<'literal'>('literal'),
    caseMode,
    wholeWord: fc.boolean(),
  }),
);
const shape = fc.record({
  contextBefore: fc.integer({ min: 0, max: 3 }),
  contextAfter: fc.integer({ min: 0, max: 3 }),
  maxLineChars: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
});
const fileNames = fc.constantFrom('a.ts', 'b.md', 'c/d.js', 'c/e.txt', 'c.go');

const byPlace = (a: { path: string; line: number }, b: { path: string; line: number }) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line;
/** The engine's matches in the naive searcher's order (paths sorted whole, not segment by segment). */
const sorted = (ms: GrepMatch[]) => [...ms].sort(byPlace);
/**
 * Two places where the engine departs from ripgrep's line rules (see the `it.fails` cases at
 * the end) are kept out of the properties: an unterminated last line loses a final '\r', and
 * a hit that needs the '\r' before a '\n' is still delivered (its range clipped at the line's
 * end, empty when the hit is the '\r' alone). Texts drop a final '\r', and
 * for patterns that can match '\r' (\W, negated classes) every '\r' before a '\n' as well.
 */
function dodgeCr(files: Record<string, string>, req: NaiveRequest): Record<string, string> {
  const crCapable = req.mode === 'regex' && /\\W|\[\^/.test(req.pattern);
  const fix = (t: string) => (crCapable ? t.replace(/\r+(?=\n)/g, '') : t).replace(/\r+$/, '');
  return Object.fromEntries(Object.entries(files).map(([p, t]) => [p, fix(t)]));
}

const compiles = (req: NaiveRequest) => {
  try {
    return compileMatcher(req.pattern, {
      mode: req.mode,
      caseMode: req.caseMode ?? 'sensitive',
      wholeWord: req.wholeWord,
    });
  } catch {
    return null;
  }
};

/**
 * A MemorySource with ranged reads as NodeFsSource does them: only the asked windows hold the
 * file's bytes, the rest is junk holding newlines and the queries' letters, so anything taken
 * from outside a window shows up as a difference.
 */
class RangedMemorySource extends MemorySource {
  rangedReads = 0;
  async readRanges(
    p: string,
    ranges: ReadonlyArray<readonly [number, number]>,
    size: number,
    mtimeMs?: number,
  ): Promise<Uint8Array | null> {
    const whole = await this.read(p);
    if (whole.length !== size || (mtimeMs !== undefined && (await this.stat(p))?.mtimeMs !== mtimeMs))
      return null;
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) out[i] = JUNK[i % JUNK.length];
    for (const [s, e] of ranges) out.set(whole.subarray(s, e), s);
    this.rangedReads++;
    return out;
  }
}
const JUNK = new TextEncoder().encode('ab\nneedle\r\nFoo(x_y\n');

describe('naive reference searcher', () => {
  it('splits lines by ripgrep rules', () => {
    expect(naiveLines('')).toEqual([]);
    expect(naiveLines('\n')).toEqual(['']);
    expect(naiveLines('a')).toEqual(['a']);
    expect(naiveLines('a\n')).toEqual(['a']);
    expect(naiveLines('a\n\n')).toEqual(['a', '']);
    expect(naiveLines('a\r\nb\r\n')).toEqual(['a', 'b']);
    expect(naiveLines('a\rb\r\r\n\r')).toEqual(['a\rb\r', '\r']);
  });

  it('answers hand-checked cases', () => {
    const files = { 'a.ts': 'foo bar\r\nxfoo foo_x\nFOO\n', 'b.ts': 'no\nmatch\n' };
    expect(
      naiveSearch(files, { pattern: 'foo', mode: 'literal' }).map((m) => [m.path, m.line, m.text, m.ranges]),
    ).toEqual([
      ['a.ts', 1, 'foo bar', [[0, 3]]],
      [
        'a.ts',
        2,
        'xfoo foo_x',
        [
          [1, 4],
          [5, 8],
        ],
      ],
    ]);
    expect(
      naiveSearch(files, {
        pattern: 'foo',
        mode: 'literal',
        wholeWord: true,
        caseMode: 'smart',
        contextAfter: 5,
      }).map((m) => [m.line, m.ranges, m.contextAfter]),
    ).toEqual([
      [1, [[0, 3]], ['xfoo foo_x', 'FOO']],
      [3, [[0, 3]], []],
    ]);
    const long = 'x'.repeat(50) + 'needle' + 'y'.repeat(10);
    expect(naiveSearch({ 'l.ts': long }, { pattern: 'needle', mode: 'literal', maxLineChars: 20 })).toEqual([
      {
        path: 'l.ts',
        line: 1,
        text: long.slice(45, 65),
        ranges: [[5, 11]],
        textStart: 45,
        contextBefore: [],
        contextAfter: [],
      },
    ]);
  });
});

describe('fast search paths agree with the naive searcher (property)', () => {
  it('the literal-line path, with long lines matched in windows', async () => {
    let used = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fileNames, text(120), { minKeys: 1 }),
          request,
          shape,
          fc.constantFrom(0, 8, 512),
          async (raw, base, sh, windowMin) => {
            const req = { ...base, ...sh };
            const files = dodgeCr(raw, req);
            const matcher = compiles(req);
            if (!matcher) return;
            if (literalLineFinders(matcher)) used++;
            LINE_WINDOWS.minLine = windowMin;
            LINE_WINDOWS.byteMinLine = windowMin;
            LITERAL_LINES.minBytes = 0; // short literals too (a scan takes pieces for those by default)
            const got = await searchAll(new Workspace([new MemorySource(files)]), req, {
              literalLines: true,
            });
            const want = naiveSearch(files, req);
            expect(sorted(got.matches)).toEqual(want);
            expect(got.summary.total).toBe(want.length);
          },
        ),
        { numRuns: 600 },
      );
    } finally {
      LINE_WINDOWS.minLine = 512;
      LINE_WINDOWS.byteMinLine = 512;
    }
    // the property must exercise the literal-line path, not only its whole-file fallback
    expect(used).toBeGreaterThan(200);
  });

  it('the indexed path: trigram candidates, small segments, ranged reads', async () => {
    let ranged = 0; // runs with at least one ranged read
    let narrowed = 0;
    // long ASCII texts are indexed in segments (a file with non-ASCII text is one document)
    const asciiText = text(300, 60).map((t) => t.replace(/[^\x00-\x7f]/g, 'q'));
    const files = fc.dictionary(fileNames, fc.oneof(asciiText, asciiText, text(300, 60), text(40)), {
      minKeys: 1,
    });
    // ranged reads whatever share of the file the ranges hold, and (a quarter of the runs) the default
    const margins = fc.tuple(
      fc.integer({ min: 0, max: 16 }),
      fc.constantFrom(1, 1, 1, RANGED_READS.maxShare),
    );
    await fc.assert(
      fc.asyncProperty(
        files,
        request,
        shape,
        fc.constantFrom(8, 24, 64),
        margins,
        async (raw, base, sh, segmentChars, [margin, maxShare]) => {
          RANGED_READS.maxShare = maxShare;
          const req = { ...base, ...sh };
          const tree = dodgeCr(raw, req);
          if (!compiles(req)) return;
          const source = new RangedMemorySource(tree);
          const ws = new Workspace([source]);
          const svc = new CodeIndexService(ws, noChunks, undefined, 'index', { segmentChars });
          await svc.refresh();
          const got = await searchAll(ws, req, { prefilter: svc.prefilter(), rangeMargin: margin });
          const want = naiveSearch(tree, req);
          expect(sorted(got.matches)).toEqual(want);
          expect(got.summary.total).toBe(want.length);
          if (source.rangedReads > 0) ranged++;
          if (got.summary.strategy.endsWith('+trigram')) narrowed++;
        },
      ),
      { numRuns: 400 },
    );
    expect(narrowed).toBeGreaterThan(120);
    // runs that read part of a file (57-78 of 400 over eight seeds; the bound leaves room for any seed)
    expect(ranged).toBeGreaterThan(30);
  });

  it('the indexed path finding candidate lines by the rarest clause, not the required literals', async () => {
    let anchored = 0; // runs whose lines were found by another clause than the required literals
    // ('Kind' and 'sKs': a caseless k or s literal is also met by U+212A or U+017F, the orbit path)
    const word = fc.constantFrom(
      'foo',
      'Foo',
      'bar',
      'widget',
      'Type',
      'type',
      'Kind',
      'sKs',
      'x',
      '(',
      ' ',
      '\t',
    );
    const line = fc.array(word, { maxLength: 12 }).map((w) => w.join(''));
    const file = fc.array(line, { maxLength: 40 }).map((l) => l.join('\n'));
    const files = fc.dictionary(fileNames, file, { minKeys: 1 });
    const glue = fc.constantFrom('\\s+', '\\s*', '.*', '[ (]', '\\w*', ' ');
    const lit = fc.constantFrom('foo', 'bar', 'widget', 'Type', 'type\\(', 'Foo', 'Kind', 'sks');
    const pattern = fc.tuple(lit, glue, lit).map(([a, g, b]) => a + g + b);
    await fc.assert(
      fc.asyncProperty(
        files,
        pattern,
        fc.constantFrom<NonNullable<GrepRequest['caseMode']>>('sensitive', 'insensitive'),
        shape,
        fc.constantFrom(16, 64),
        async (tree, p, caseMode, sh, segmentChars) => {
          const req = { pattern: p, mode: 'regex' as const, caseMode, ...sh };
          const ws = new Workspace([new MemorySource(tree)]);
          const svc = new CodeIndexService(ws, noChunks, undefined, 'index', { segmentChars });
          await svc.refresh();
          const prefilter = svc.prefilter()!;
          const got = await searchAll(ws, req, { prefilter });
          const want = naiveSearch(tree, req);
          expect(sorted(got.matches)).toEqual(want);
          expect(got.summary.total).toBe(want.length);
          const m = compileMatcher(req.pattern, req);
          const anchor = prefilter.candidates(m) ? prefilter.rarestClause!(m) : null;
          if (anchor && anchor.join() !== m.requiredLiterals?.join()) anchored++;
        },
      ),
      { numRuns: 300 },
    );
    // (30-41 of 300 over several seeds; the bound leaves room for any seed)
    expect(anchored).toBeGreaterThan(15);
  });

  describe('the indexed path over files larger than 32 KiB, through Node pread and the production segment size', () => {
    const dirs: string[] = [];
    afterAll(() => {
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    });

    class CountingNodeFsSource extends NodeFsSource {
      rangedReads = 0;
      override async readRanges(
        rel: string,
        ranges: ReadonlyArray<readonly [number, number]>,
        size: number,
        mtimeMs?: number,
      ) {
        const got = await super.readRanges(rel, ranges, size, mtimeMs);
        if (got) this.rangedReads++;
        return got;
      }
    }

    it('answers like the naive searcher', async () => {
      // lines of common pieces; rare pieces ('needle', 'kés', ...) land in a few segments only
      const line = fc
        .array(
          fc.oneof(
            { arbitrary: commonPiece.filter((p) => !p.includes('\n')), weight: 40 },
            { arbitrary: rarePiece.filter((p) => p !== '\r'), weight: 1 },
          ),
          {
            maxLength: 16,
          },
        )
        .map((p) => p.join(''));
      const asciiOnly = (s: string) => s.replace(/[^\x00-\x7f]/g, 'q');
      // random lines in three groups, each followed by ~22 KiB of filler lines holding no rare
      // piece: several 16 KiB segments, rare pieces in segments that start far into the file and
      // segments between them that are no candidates
      const filler = 'ab x_y foo, bar (k) S\n'.repeat(1000);
      const bigText = fc
        .tuple(fc.array(line, { minLength: 60, maxLength: 300 }), fc.boolean(), fc.boolean())
        .map(([ls, ascii, crlf]) => {
          const third = Math.ceil(ls.length / 3);
          const groups = [ls.slice(0, third), ls.slice(third, 2 * third), ls.slice(2 * third)];
          const t = groups.map((g) => g.map((l) => l + '\n').join('') + filler).join('');
          const eol = crlf ? t.replace(/\n/g, '\r\n') : t;
          return ascii ? asciiOnly(eol) : eol; // an ASCII file is segmented, another is one document
        });
      const tree = fc.record({ 'big.ts': bigText, 'small.md': text(60), 'c/big.txt': bigText });
      const focused = fc.record({
        pattern: fc.constantFrom(
          'needle',
          'NEEDLE',
          'kés',
          'bar_foo',
          'foobar',
          'needle|foobar',
          '(?:k|s)é',
          'fo+bar',
          '[bn]eedle',
        ),
        mode: fc.constant<'regex'>('regex'),
        caseMode,
        wholeWord: fc.boolean(),
      });
      let ranged = 0;
      await fc.assert(
        // ranged reads whatever share of the file the ranges hold, and (half the runs) the default
        fc.asyncProperty(
          tree,
          fc.oneof(focused, focused, request),
          shape,
          fc.constantFrom(1, RANGED_READS.maxShare),
          async (raw, base, sh, maxShare) => {
            RANGED_READS.maxShare = maxShare;
            const req = { ...base, ...sh };
            const files = dodgeCr(raw, req);
            if (!compiles(req)) return;
            expect(Buffer.byteLength(files['big.ts'])).toBeGreaterThan(32 * 1024);
            const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-naive-'));
            dirs.push(dir);
            for (const [p, t] of Object.entries(files)) {
              fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
              fs.writeFileSync(path.join(dir, p), t);
            }
            const source = new CountingNodeFsSource(dir);
            const ws = new Workspace([source]);
            const svc = new CodeIndexService(ws, noChunks);
            await svc.refresh();
            const got = await searchAll(ws, req, { prefilter: svc.prefilter() });
            const want = naiveSearch(files, req);
            expect(sorted(got.matches)).toEqual(want);
            expect(got.summary.total).toBe(want.length);
            if (source.rangedReads > 0) ranged++;
            fs.rmSync(dir, { recursive: true, force: true });
          },
        ),
        { numRuns: 40 },
      );
      // runs that read part of a file: 13-21 of 40 over six seeds when every share is read by ranges, 5-11
      // at the default share; half and half here, so the bound leaves room for any seed
      expect(ranged).toBeGreaterThan(4);
    }, 120_000);
  });

  // Known departures from ripgrep's line rules. These fail today (so `it.fails` passes); when
  // the engine is fixed they start passing, `it.fails` reports it, and they become plain tests
  // and dodgeCr goes.
  it.fails('a final "\\r" with no "\\n" after it stays part of the last line (engine drops it)', async () => {
    const files = { 'a.ts': 'one\ntwo\r' };
    const req: NaiveRequest = { pattern: 'two', mode: 'literal' };
    for (const literalLines of [false, true]) {
      const got = await searchAll(new Workspace([new MemorySource(files)]), req, { literalLines });
      expect(got.matches).toEqual(naiveSearch(files, req));
    }
  });
  it.fails(
    'a hit that needs the "\\r" before a "\\n" is no hit (engine delivers it, clipped to the line)',
    async () => {
      const files = { 'a.ts': 'ab\r\nab\n' };
      const req: NaiveRequest = { pattern: 'b\\W', mode: 'regex' };
      const got = await searchAll(new Workspace([new MemorySource(files)]), req);
      expect(got.matches).toEqual(naiveSearch(files, req));
    },
  );
});
