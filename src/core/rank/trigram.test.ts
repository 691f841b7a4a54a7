import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchAll } from '../grep/search';
import { compileMatcher } from '../grep/regex';
import type { GrepRequest } from '../grep/types';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { CodeIndexService } from './service';
import { foldUnit, literalTrigrams, TrigramIndex } from './trigram';

const noChunks = async () => ({ chunkFile: () => [] });

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
    expect(t.candidates({ requiredLiterals: ['createserver'] })).toEqual(new Set(['a.ts', 'b.ts']));
    expect(t.candidates({ requiredLiterals: ['server', 'nothing'] })).toEqual(new Set(['a.ts', 'b.ts', 'c.ts']));
    expect(t.candidates({ requiredLiterals: ['ab'] })).toBeNull(); // too short to narrow: scan
    expect(t.candidates({ requiredLiterals: null })).toBeNull();
    t.removeFile('a.ts');
    expect(t.candidates({ requiredLiterals: ['createserver'] })).toEqual(new Set(['b.ts']));
    t.addFile('b.ts', 'no longer');
    expect(t.candidates({ requiredLiterals: ['createserver'] })).toEqual(new Set());
  });
});

describe('trigram index updates (property)', () => {
  it('adds, replacements, removals and compaction answer like a fresh build', () => {
    const op = fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.option(fc.stringMatching(/^[abcAB ]{0,12}$/), { nil: null }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 20 }), fc.boolean(), fc.stringMatching(/^[abAB]{3,5}$/), (ops, compactMidway, lit) => {
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
        for (const p of fresh.candidates(plan) ?? []) expect(state.get(p)!.toLowerCase().length).toBeGreaterThanOrEqual(3);
      }),
      { numRuns: 300 },
    );
  });
});

// Texts over a small alphabet with case variants, a Kelvin sign, a long s, non-ASCII and CRLF.
const unit = fc.constantFrom('a', 'b', 'c', 'A', 'B', 'k', 'K', '\u212a', 's', 'S', '\u017f', 'é', 'É', ' ', '_', '(', '.', '\n', '\r\n');
const text = fc.array(unit, { maxLength: 80 }).map((u) => u.join(''));
const files = fc.dictionary(fc.constantFrom('a.ts', 'b.md', 'd/c.py', 'd/e.txt', 'f.go'), text, { minKeys: 1 });
const atom = fc.constantFrom('a', 'b', 'c', 'k', 's', 'K', 'S', 'é', '.', '\\w', '\\s', '[ab]', '[^a]', '\\bab', 'abc', 'kks', 'ABK', 'sab');
const regex = fc
  .array(fc.tuple(atom, fc.constantFrom('', '', '', '*', '+', '?', '{2}')), { minLength: 1, maxLength: 5 })
  .chain((parts) => fc.constantFrom(parts.map(([a, q]) => a + q).join(''), parts.map(([a]) => a).join('') + '|abc', `(?i)${parts.map(([a]) => a).join('')}`));
const request = fc.oneof(
  fc.record({ pattern: regex, mode: fc.constant<'regex'>('regex'), caseMode: fc.constantFrom<GrepRequest['caseMode'][]>('sensitive', 'insensitive', 'smart'), wholeWord: fc.boolean() }),
  fc.record({ pattern: fc.array(unit.filter((u) => !u.includes('\n')), { minLength: 1, maxLength: 6 }).map((u) => u.join('')), mode: fc.constant<'literal'>('literal'), caseMode: fc.constantFrom<GrepRequest['caseMode'][]>('sensitive', 'insensitive', 'smart'), wholeWord: fc.boolean() }),
);

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
