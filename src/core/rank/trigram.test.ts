import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { RANGED_READS } from '../grep/literal-lines';
import { searchAll } from '../grep/search';
import { compileMatcher } from '../grep/regex';
import type { GrepRequest } from '../grep/types';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { CodeIndexService } from './service';
import { foldUnit, literalTrigrams, TrigramIndex } from './trigram';

const noChunks = async () => ({ chunkFile: () => [] });
/** The candidate paths of a plan (null: no narrowing). */
const paths = (m: ReturnType<TrigramIndex['candidates']>) => (m ? new Set(m.keys()) : null);

describe('trigram index', () => {
  it('folds ASCII case and the two non-ASCII letters whose case orbit reaches ASCII', () => {
    expect(foldUnit('A'.charCodeAt(0))).toBe('a'.charCodeAt(0));
    expect(foldUnit(0x212a)).toBe('k'.charCodeAt(0));
    expect(foldUnit(0x17f)).toBe('s'.charCodeAt(0));
    expect(foldUnit('é'.charCodeAt(0))).toBe(foldUnit('ü'.charCodeAt(0)));
    expect(literalTrigrams('ab')).toEqual([]);
    expect(literalTrigrams('abcabc')).toHaveLength(3);
  });
  it('narrows to files holding every trigram of a literal, any case', () => {
    const t = new TrigramIndex();
    t.addFile('a.ts', 'const createServer = 1');
    t.addFile('b.ts', 'CREATESERVER');
    t.addFile('c.ts', 'create a server');
    expect(paths(t.candidates({ requiredLiterals: ['createserver'] }))).toEqual(new Set(['a.ts', 'b.ts']));
    expect(paths(t.candidates({ requiredLiterals: ['server', 'nothing'] }))).toEqual(
      new Set(['a.ts', 'b.ts', 'c.ts']),
    );
    expect(paths(t.candidates({ requiredLiterals: ['ab'] }))).toBeNull(); // too short to narrow: scan
    expect(paths(t.candidates({ requiredLiterals: null }))).toBeNull();
    t.removeFile('a.ts');
    expect(paths(t.candidates({ requiredLiterals: ['createserver'] }))).toEqual(new Set(['b.ts']));
    t.addFile('b.ts', 'no longer');
    expect(paths(t.candidates({ requiredLiterals: ['createserver'] }))).toEqual(new Set());
  });
});

describe('trigram index updates (property)', () => {
  it('adds, replacements, removals and compaction answer like a fresh build', () => {
    const op = fc.tuple(
      fc.constantFrom('a', 'b', 'c', 'd'),
      fc.option(fc.stringMatching(/^[abcAB ]{0,12}$/), { nil: null }),
    );
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 20 }),
        fc.boolean(),
        fc.stringMatching(/^[abAB]{3,5}$/),
        (ops, compactMidway, lit) => {
          const idx = new TrigramIndex();
          const state = new Map<string, string>();
          ops.forEach(([path, text], i) => {
            if (text === null) {
              idx.removeFile(path);
              state.delete(path);
            } else {
              idx.addFile(path, text);
              state.set(path, text);
            }
            if (compactMidway && i === Math.floor(ops.length / 2)) idx.compact();
          });
          const fresh = new TrigramIndex();
          for (const [p, t] of state) fresh.addFile(p, t);
          const plan = { requiredLiterals: [lit.toLowerCase()] };
          expect(idx.candidates(plan)).toEqual(fresh.candidates(plan));
          const saved = TrigramIndex.fromState(idx.toState());
          expect(saved.candidates(plan)).toEqual(fresh.candidates(plan));
          // every candidate really holds the literal's trigrams (no false positives beyond folding)
          for (const p of paths(fresh.candidates(plan)) ?? [])
            expect(state.get(p)!.toLowerCase().length).toBeGreaterThanOrEqual(3);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// Texts over a small alphabet with case variants, a Kelvin sign, a long s, non-ASCII and CRLF.
const unit = fc.constantFrom(
  'a',
  'b',
  'c',
  'A',
  'B',
  'k',
  'K',
  '\u212a',
  's',
  'S',
  '\u017f',
  'é',
  'É',
  ' ',
  '_',
  '(',
  '.',
  '\n',
  '\r\n',
);
const text = fc.array(unit, { maxLength: 80 }).map((u) => u.join(''));
const files = fc.dictionary(fc.constantFrom('a.ts', 'b.md', 'd/c.py', 'd/e.txt', 'f.go'), text, {
  minKeys: 1,
});
const atom = fc.constantFrom(
  'a',
  'b',
  'c',
  'k',
  's',
  'K',
  'S',
  'é',
  '.',
  '\\w',
  '\\s',
  '[ab]',
  '[^a]',
  '\\bab',
  'abc',
  'kks',
  'ABK',
  'sab',
);
const regex = fc
  .array(fc.tuple(atom, fc.constantFrom('', '', '', '*', '+', '?', '{2}')), { minLength: 1, maxLength: 5 })
  .chain((parts) =>
    fc.constantFrom(
      parts.map(([a, q]) => a + q).join(''),
      parts.map(([a]) => a).join('') + '|abc',
      `(?i)${parts.map(([a]) => a).join('')}`,
    ),
  );
const request = fc.oneof(
  fc.record({
    pattern: regex,
    mode: fc.constant<'regex'>('regex'),
    caseMode: fc.constantFrom<GrepRequest['caseMode'][]>('sensitive', 'insensitive', 'smart'),
    wholeWord: fc.boolean(),
  }),
  fc.record({
    pattern: fc
      .array(
        unit.filter((u) => !u.includes('\n')),
        { minLength: 1, maxLength: 6 },
      )
      .map((u) => u.join('')),
    mode: fc.constant<'literal'>('literal'),
    caseMode: fc.constantFrom<GrepRequest['caseMode'][]>('sensitive', 'insensitive', 'smart'),
    wholeWord: fc.boolean(),
  }),
);

describe('trigram plans and the index tail', () => {
  it('intersects the clauses of a pattern: a file must hold a literal of each', () => {
    const t = new TrigramIndex();
    t.addFile('both.ts', 'export function widgetType(x) {}');
    t.addFile('type-only.ts', 'const a = widgetType(b)');
    t.addFile('function-only.ts', 'function widget() {}');
    const m = compileMatcher('function\\s+\\w+Type\\(', { mode: 'regex', caseMode: 'sensitive' });
    expect(m.requiredLiterals).toEqual(['Type(']);
    expect(paths(t.candidates(m))).toEqual(new Set(['both.ts']));
    // the required literals alone (no clauses) narrow less
    expect(paths(t.candidates({ requiredLiterals: ['type('] }))).toEqual(
      new Set(['both.ts', 'type-only.ts']),
    );
    // clauses with a literal too short for a trigram are left out; with none left, no narrowing
    expect(
      paths(t.candidates({ requiredLiterals: ['ab'], requiredClauses: [['ab', 'widget'], ['function']] })),
    ).toEqual(new Set(['both.ts', 'function-only.ts']));
    expect(paths(t.candidates({ requiredLiterals: ['ab'], requiredClauses: [['x', 'widget']] }))).toBeNull();
  });

  it('names the clause the fewest documents hold, for finding candidate lines by it', () => {
    const t = new TrigramIndex();
    for (let i = 0; i < 5; i++) t.addFile(`f${i}.ts`, `const w${i} = widgetFactory(${i});`);
    t.addFile('rare.ts', 'widgetFactory  makeFoo();');
    const m = compileMatcher('widgetFactory\\s+\\w+Foo', { mode: 'regex', caseMode: 'sensitive' });
    // the matcher's own choice is the longer literal, which every file holds
    expect(m.requiredLiterals).toEqual(['widgetFactory']);
    expect(m.requiredClauses).toContainEqual(['Foo']);
    expect(t.rarestClause(m)).toEqual(['Foo']);
    // one clause: nothing to choose
    expect(t.rarestClause({ requiredLiterals: ['return'], requiredClauses: [['return']] })).toBeNull();
    // a tie keeps the required literals
    expect(t.rarestClause({ requiredLiterals: ['widget'], requiredClauses: [['Factory']] })).toEqual([
      'widget',
    ]);
  });

  it('groups a large tail (counting) and a small one (sorting) alike, before and after compaction (property)', () => {
    // pseudo-random words over 20 letters from a drawn seed (fast-check's own strings lean to short repeats, which
    // once left 12 files under the limit): some 6,000 distinct trigrams a file, 12 files past the small-tail limit
    const doc = fc.integer({ min: 1, max: 0x7fffffff }).map((seed) => {
      let x = seed;
      const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8;
      const words: string[] = [];
      for (let i = 0; i < 2000; i++) {
        let w = '';
        for (let n = 3 + (next() % 7); n > 0; n--) w += String.fromCharCode(97 + (next() % 20));
        words.push(w);
      }
      return words.join(' ');
    });
    fc.assert(
      fc.property(
        fc.array(doc, { minLength: 12, maxLength: 12 }),
        fc.array(fc.stringMatching(/^[a-t]{3,5}$/), { minLength: 1, maxLength: 6 }),
        (docs, lits) => {
          const big = new TrigramIndex();
          docs.forEach((d, i) => big.addFile(`f${i}.ts`, d));
          expect((big as unknown as { tailLen: number }).tailLen).toBeGreaterThan(1 << 16); // the counting path
          const small = docs.map((d, i) => {
            const one = new TrigramIndex();
            one.addFile(`f${i}.ts`, d);
            return one;
          });
          for (const lit of lits) {
            const plan = { requiredLiterals: [lit] };
            const want = new Set(small.flatMap((one) => [...(paths(one.candidates(plan)) ?? [])]));
            expect(paths(big.candidates(plan))).toEqual(want);
          }
          big.compact();
          for (const lit of lits) {
            const plan = { requiredLiterals: [lit] };
            expect(paths(big.candidates(plan))).toEqual(
              new Set(small.flatMap((one) => [...(paths(one.candidates(plan)) ?? [])])),
            );
          }
        },
      ),
      { numRuns: 4 },
    );
  }, 60_000);

  it('reads a file whose candidate ranges hold most of it in one read, and a sparse one by ranges', async () => {
    const filler = (n: number) =>
      Array.from({ length: n }, (_, i) => `line ${i} of filler text`).join('\n') + '\n';
    const dense = filler(10).replace(/filler/g, 'needle');
    const sparse = filler(60) + 'a needle here\n' + filler(60);
    const source = new RangedSource({ 'dense.ts': dense, 'sparse.ts': sparse });
    const ws = new Workspace([source]);
    const svc = new CodeIndexService(ws, noChunks, undefined, 'index', { segmentChars: 64 });
    await svc.refresh();
    const req = { pattern: 'needle', mode: 'literal' as const, contextBefore: 1 };
    const plain = await searchAll(ws, req, { literalLines: false });
    const indexed = await searchAll(ws, req, { prefilter: svc.prefilter(), rangeMargin: 8 });
    expect(indexed.matches).toEqual(plain.matches);
    expect(indexed.matches).toHaveLength(11);
    expect(source.rangedReads).toBe(1); // sparse.ts only
    RANGED_READS.maxShare = 1;
    await searchAll(ws, req, { prefilter: svc.prefilter(), rangeMargin: 8 });
    expect(source.rangedReads).toBe(3);
  });
});

describe('indexed search equals the scan', () => {
  it('for random files and random literal and regex queries (property)', async () => {
    let narrowed = 0;
    await fc.assert(
      fc.asyncProperty(files, request, async (tree, req) => {
        try {
          compileMatcher(req.pattern, { mode: req.mode, caseMode: req.caseMode!, wholeWord: req.wholeWord });
        } catch {
          return; // invalid patterns fail the same way either way
        }
        const ws = new Workspace([new MemorySource(tree)]);
        const svc = new CodeIndexService(ws, noChunks);
        await svc.refresh();
        const plain = await searchAll(ws, req);
        const indexed = await searchAll(ws, req, { prefilter: svc.prefilter() });
        const view = (r: typeof plain) => r.matches.map((m) => [m.path, m.line, m.ranges]);
        expect(view(indexed)).toEqual(view(plain));
        expect(indexed.summary.total).toBe(plain.summary.total);
        if (indexed.summary.strategy.endsWith('+trigram')) narrowed++;
      }),
      { numRuns: 400 },
    );
    // the property must exercise the index, not only its scan fallback
    expect(narrowed).toBeGreaterThan(100);
  });
});

/**
 * A MemorySource that reads ranges as NodeFsSource does: only the asked windows hold the
 * file's bytes; the rest is junk with newlines, NULs and the queries' letters, so a line
 * number, context line or hit taken from outside a window shows up as a difference.
 */
class RangedSource extends MemorySource {
  rangedReads = 0;
  async readRanges(
    path: string,
    ranges: ReadonlyArray<readonly [number, number]>,
    size: number,
    mtimeMs?: number,
  ): Promise<Uint8Array | null> {
    const whole = await this.read(path);
    if (whole.length !== size || (mtimeMs !== undefined && (await this.stat(path))?.mtimeMs !== mtimeMs))
      return null;
    const out = new Uint8Array(size);
    for (let i = 0; i < size; i++) out[i] = JUNK[i % JUNK.length];
    for (const [s, e] of ranges) out.set(whole.subarray(s, e), s);
    this.rangedReads++;
    return out;
  }
}
const JUNK = new TextEncoder().encode('zz\n\0abc\r\nKs(');
const defaultShare = RANGED_READS.maxShare;
afterEach(() => {
  RANGED_READS.maxShare = defaultShare;
});

describe('segmented trigram index', () => {
  it('splits a long ASCII file at line starts and names the candidate ranges with their first lines', () => {
    const lines = Array.from({ length: 40 }, (_, i) =>
      i === 25 ? 'const needle = 1' : `line ${i + 1} filler`,
    );
    const text = lines.join('\n');
    const t = new TrigramIndex(32);
    t.addFile('long.ts', text, text.length);
    t.addFile('short.ts', 'a needle here', 13);
    t.addFile('accented.ts', text + ' é', text.length + 3); // bytes != code units: one document
    const got = t.candidates({ requiredLiterals: ['needle'] })!;
    expect(got.get('short.ts')).toBeNull();
    expect(got.get('accented.ts')).toBeNull();
    const ranges = got.get('long.ts')!;
    expect(ranges.length).toBe(1);
    const [r] = ranges;
    const hitAt = text.indexOf('const needle');
    expect(r.start).toBeLessThanOrEqual(hitAt);
    expect(r.end).toBeGreaterThan(hitAt);
    expect(r.start === 0 || text[r.start - 1] === '\n').toBe(true);
    expect(r.line).toBe(text.slice(0, r.start).split('\n').length);
    expect(r.end - r.start).toBeLessThan(text.length / 2);
    // the state round trip keeps the segments; removal drops every one of them
    const saved = TrigramIndex.fromState(t.toState(), 32);
    expect(saved.candidates({ requiredLiterals: ['needle'] })).toEqual(got);
    saved.removeFile('long.ts');
    expect(paths(saved.candidates({ requiredLiterals: ['filler'] }))).toEqual(new Set(['accented.ts']));
  });

  it('a stored state whose segments do not match its documents is a version mismatch (the service rebuilds)', () => {
    const t = new TrigramIndex(16);
    t.addFile('f.ts', 'x'.repeat(100), 100);
    const state = t.toState();
    expect(() => TrigramIndex.fromState({ ...state, segments: state.segments.subarray(2) })).toThrow(
      expect.objectContaining({ code: 'IndexVersionMismatch' }),
    );
  });

  it('a trigram across a segment edge is still found', () => {
    const text = 'x'.repeat(40) + '\nab\ncd' + 'y'.repeat(60);
    const t = new TrigramIndex(16);
    t.addFile('f.ts', text, text.length);
    expect(paths(t.candidates({ requiredLiterals: ['b\nc'] }))).toEqual(new Set(['f.ts']));
  });

  it('a file edited in place after indexing (same size) is still answered like the scan', async () => {
    const lines = Array.from(
      { length: 60 },
      (_, i) => `line ${String(i).padStart(2, '0')} ${i % 28 === 14 ? 'needle' : 'filler'}`,
    );
    const text = lines.join('\n') + '\n';
    // same-size edits: line 3 splits in two and lines 56 and 57 join (the lines between shift by
    // one); or one character leaves line 5 and one enters line 50 (the bytes between shift by one)
    const at3 = text.indexOf('line 03') + 4;
    const at56 = text.indexOf('\nline 57');
    const at5 = text.indexOf('line 05');
    const at50 = text.indexOf('line 50') + 5;
    const edits = [
      text.slice(0, at3) + '\n' + text.slice(at3 + 1, at56) + ' ' + text.slice(at56 + 1),
      text.slice(0, at5) + text.slice(at5 + 1, at50) + 'X' + text.slice(at50),
    ];
    for (const edited of edits) expect(edited.length).toBe(text.length);
    for (const [ranged, newTime, edited] of [false, true].flatMap((r) =>
      [false, true].flatMap((t) => edits.map((e) => [r, t, e] as const)),
    )) {
      {
        if (ranged && !newTime) continue; // a ranged read trusts size and time (Node's fstat), as the design says
        const source = ranged ? new RangedSource({}) : new MemorySource({});
        source.write('f.ts', text, 1000);
        const ws = new Workspace([source]);
        const svc = new CodeIndexService(ws, noChunks, undefined, 'index', { segmentChars: 200 });
        await svc.refresh();
        // the needle lines (15 and 43) start the two candidate segments
        expect(
          svc
            .prefilter()!
            .candidates({ requiredLiterals: ['needle'] })!
            .get('f.ts'),
        ).toEqual([
          { start: 210, end: 420, line: 15 },
          { start: 630, end: Number.MAX_SAFE_INTEGER, line: 43 },
        ]);
        source.write('f.ts', edited, newTime ? 2000 : 1000);
        for (const req of [
          { pattern: 'needle', mode: 'literal' as const },
          { pattern: 'needle', mode: 'literal' as const, contextBefore: 1, contextAfter: 1 },
        ]) {
          const plain = await searchAll(ws, req);
          const indexed = await searchAll(ws, req, { prefilter: svc.prefilter(), rangeMargin: 4 });
          expect(indexed.matches).toEqual(plain.matches);
          expect(plain.matches.length).toBe(2);
        }
      }
    }
  });

  it('ranged reads, contexts and cut lines answer exactly like the scan (property)', async () => {
    const asciiUnit = fc.constantFrom(
      'a',
      'b',
      'c',
      'A',
      'B',
      'k',
      's',
      'S',
      ' ',
      '_',
      '(',
      '.',
      'abc',
      'kks',
      '\n',
      '\n',
      '\r\n',
    );
    const longText = fc.array(asciiUnit, { minLength: 40, maxLength: 300 }).map((u) => u.join(''));
    const tree = fc.dictionary(
      fc.constantFrom('a.ts', 'b.md', 'd/c.py', 'd/e.txt'),
      fc.oneof(longText, longText, text),
      { minKeys: 1 },
    );
    // patterns with a literal of 3+ characters (most random ones have none, and scan)
    const focused = fc.record({
      pattern: fc.constantFrom(
        'abc',
        'kks',
        'bc ',
        's_a',
        'abc\\w*',
        'ABC',
        'a\\.abc',
        'kks|abc',
        'sab(',
        'c[ab]abc',
      ),
      mode: fc.constantFrom<Array<'regex' | 'literal'>>('regex', 'literal'),
      caseMode: fc.constantFrom<GrepRequest['caseMode'][]>('sensitive', 'insensitive', 'smart'),
      wholeWord: fc.boolean(),
    });
    const shaped = fc.record({
      base: fc.oneof(request, focused, focused),
      contextBefore: fc.integer({ min: 0, max: 3 }),
      contextAfter: fc.integer({ min: 0, max: 3 }),
      maxLineChars: fc.constantFrom(undefined, 2, 7, 1000),
      margin: fc.integer({ min: 0, max: 12 }),
      segmentChars: fc.constantFrom(4, 9, 24),
      // ranged reads whatever share of a file the ranges hold, and (a quarter of the runs) the default
      share: fc.constantFrom(1, 1, 1, defaultShare),
    });
    let ranged = 0;
    await fc.assert(
      fc.asyncProperty(
        tree,
        shaped,
        async (files, { base, contextBefore, contextAfter, maxLineChars, margin, segmentChars, share }) => {
          RANGED_READS.maxShare = share;
          const req: GrepRequest = { ...base, contextBefore, contextAfter, maxLineChars };
          try {
            compileMatcher(req.pattern, {
              mode: req.mode,
              caseMode: req.caseMode!,
              wholeWord: req.wholeWord,
            });
          } catch {
            return;
          }
          const source = new RangedSource(files);
          const ws = new Workspace([source]);
          const svc = new CodeIndexService(ws, noChunks, undefined, 'index', { segmentChars });
          await svc.refresh();
          const plain = await searchAll(ws, req, { literalLines: false });
          const indexed = await searchAll(ws, req, { prefilter: svc.prefilter(), rangeMargin: margin });
          expect(indexed.matches).toEqual(plain.matches);
          expect(indexed.summary.total).toBe(plain.summary.total);
          ranged += source.rangedReads;
        },
      ),
      { numRuns: 400 },
    );
    // the property must exercise the ranged reads, not only whole files
    expect(ranged).toBeGreaterThan(100);
  });
});
