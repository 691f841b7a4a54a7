/**
 * Required literals: strings at least one of which every hit contains (a disjunction), for the
 * byte prefilter, the literal-anchored line search and the matcher's own line prefilter; and
 * the required clauses (a conjunction of such disjunctions), for planning a trigram index
 * lookup: every hit holds a literal of each clause, so a file can hold a hit only when its
 * trigrams hold one of each clause's literals.
 */
import type { Node } from './ast';
import { caseOrbit, foldCanonical } from './casefold';
import { matchRanges, size } from './charset';

interface LitInfo {
  /** Every string the node can match (a small set), or null. */
  exact: string[] | null;
  /** Best disjunction found inside: every match contains one of these. */
  req: string[] | null;
}

const MAX_SET = 64;
const MAX_LEN = 256;
const SMALL_CLASS = 8;

function dedupe(xs: string[]): string[] {
  return [...new Set(xs)];
}

function product(a: string[], b: string[]): string[] | null {
  if (a.length * b.length > MAX_SET) return null;
  const out: string[] = [];
  for (const x of a)
    for (const y of b) {
      if (x.length + y.length > MAX_LEN) return null;
      out.push(x + y);
    }
  return dedupe(out);
}

const COMMON = new Set('etaoinsrhlcdu _-.,;:()[]{}=/\'"\t'.split(''));

/**
 * Keywords that occur on a large share of source lines: a literal that is (or contains
 * only) one of them narrows little, so `function\s+\w+Type\(` prefilters on "Type(" rather
 * than "function" (in the benchmark corpus: ~400 files instead of ~3,800).
 */
const CODE_KEYWORDS = new Set([
  'function',
  'return',
  'const',
  'this',
  'import',
  'export',
  'from',
  'var',
  'let',
  'else',
  'new',
  'class',
  'true',
  'false',
  'null',
  'undefined',
  'typeof',
  'default',
  'case',
  'break',
  'public',
  'private',
  'static',
  'self',
  'def',
  'await',
  'async',
  'string',
  'number',
  'type',
  'interface',
  'void',
  'for',
  'while',
  'if',
  'the',
]);

function stringWeight(s: string): number {
  let w = 0;
  for (const ch of s) w += COMMON.has(ch) ? 0.6 : /[a-z]/.test(ch) ? 1 : 1.2;
  return CODE_KEYWORDS.has(s.trim().toLowerCase()) ? w * 0.3 : w;
}

/** Higher is better; -Infinity when the set is not usable (null, empty, or contains ""). */
export function litScore(lits: string[] | null): number {
  if (!lits || lits.length === 0 || lits.some((s) => s.length === 0)) return -Infinity;
  let min = Infinity;
  for (const s of lits) min = Math.min(min, stringWeight(s));
  return min - 0.5 * Math.log2(lits.length);
}

function better(a: string[] | null, b: string[] | null): string[] | null {
  return litScore(b) > litScore(a) ? b : a;
}

function bestOf(i: LitInfo): string[] | null {
  const b = better(i.req, i.exact);
  return litScore(b) === -Infinity ? null : b;
}

function charStrings(cp: number, fold: boolean, insensitive: boolean): string[] {
  if (insensitive) return [String.fromCodePoint(foldCanonical(cp))];
  if (fold) return caseOrbit(cp).map((m) => String.fromCodePoint(m));
  return [String.fromCodePoint(cp)];
}

function lits(n: Node, insensitive: boolean): LitInfo {
  switch (n.type) {
    case 'empty':
    case 'assert':
      return { exact: [''], req: null };
    case 'char':
      return { exact: charStrings(n.cp, n.fold, insensitive), req: null };
    case 'set': {
      const r = matchRanges(n.set);
      if (!r || size(r) > SMALL_CLASS) return { exact: null, req: null };
      const out: string[] = [];
      for (let i = 0; i < r.length; i += 2) {
        for (let cp = r[i]; cp <= r[i + 1]; cp++) out.push(...charStrings(cp, false, insensitive));
      }
      return { exact: dedupe(out), req: null };
    }
    case 'concat': {
      let cur: string[] | null = [''];
      let exactAll = true;
      let req: string[] | null = null;
      for (const it of n.items) {
        const info = lits(it, insensitive);
        req = better(req, info.req);
        if (info.exact) {
          if (cur) {
            const p = product(cur, info.exact);
            if (p) cur = p;
            else {
              req = better(req, cur);
              cur = info.exact;
              exactAll = false;
            }
          } else {
            cur = info.exact;
          }
        } else {
          if (cur) req = better(req, cur);
          cur = null;
          exactAll = false;
        }
      }
      if (cur) req = better(req, cur);
      return { exact: exactAll ? cur : null, req };
    }
    case 'alt': {
      const infos = n.branches.map((b) => lits(b, insensitive));
      let exact: string[] | null = null;
      if (infos.every((i) => i.exact)) {
        const all = dedupe(infos.flatMap((i) => i.exact!));
        exact = all.length <= MAX_SET ? all : null;
      }
      let req: string[] | null = [];
      for (const i of infos) {
        const b = bestOf(i);
        if (!b || !req) {
          req = null;
          break;
        }
        req = req.concat(b);
      }
      if (req) {
        req = dedupe(req);
        if (req.length > MAX_SET) req = null;
      }
      return { exact, req };
    }
    case 'repeat': {
      const b = lits(n.body, insensitive);
      if (n.min === 0) {
        if (n.max === 1 && b.exact) return { exact: dedupe(['', ...b.exact]), req: null };
        return { exact: null, req: null };
      }
      let exact: string[] | null = null;
      if (n.min === n.max && b.exact && n.min <= 8) {
        exact = [''];
        for (let k = 0; k < n.min && exact; k++) exact = product(exact, b.exact);
      }
      return { exact, req: bestOf(b) };
    }
  }
}

/** Literals at least one of which every hit contains (lowercase canonical when `insensitive`). */
export function requiredLiterals(n: Node, insensitive: boolean): string[] | null {
  const b = bestOf(lits(n, insensitive));
  return b && b.length ? b : null;
}

/** At most this many clauses are planned (each costs an index lookup). */
const MAX_CLAUSES = 8;

/**
 * Required clauses: every hit contains, for each clause, at least one of its literals (a
 * conjunction of disjunctions; lowercase canonical when `insensitive`). Unlike
 * requiredLiterals, which keeps the single best disjunction, every part of a concatenation
 * adds its own clause (`function\s+\w+Type\(`: "function" and "Type("), so an index lookup
 * can intersect them. Only clauses whose literals all have 3 or more code units (what a
 * trigram index can look up) are kept, at most MAX_CLAUSES, the best first.
 */
export function requiredClauses(n: Node, insensitive: boolean): string[][] {
  const out: string[][] = [];
  collectClauses(n, insensitive, out);
  const seen = new Set<string>();
  const kept = out.filter((c) => {
    const key = [...c].sort().join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  kept.sort((a, b) => litScore(b) - litScore(a));
  return kept.slice(0, MAX_CLAUSES);
}

function addClause(out: string[][], lits: string[] | null): void {
  if (lits && lits.length && lits.every((l) => l.length >= 3)) out.push(minimalLiterals(lits));
}

/** The literals none of the others is part of (a text holding "xyzdefg" holds "xyz": one of them is enough). */
export function minimalLiterals(lits: readonly string[]): string[] {
  return lits.filter(
    (l, i) => !lits.some((o, j) => j !== i && l.includes(o) && (o.length < l.length || j < i)),
  );
}

function collectClauses(n: Node, insensitive: boolean, out: string[][]): void {
  switch (n.type) {
    case 'concat': {
      // each maximal run of items with exact strings is one clause (their product), as in lits()
      let cur: string[] | null = [''];
      for (const it of n.items) {
        const info = lits(it, insensitive);
        if (info.exact) {
          const p: string[] | null = cur ? product(cur, info.exact) : null;
          if (p) cur = p;
          else {
            addClause(out, cur);
            cur = info.exact;
          }
        } else {
          addClause(out, cur);
          cur = null;
          collectClauses(it, insensitive, out);
        }
      }
      addClause(out, cur);
      return;
    }
    case 'repeat': {
      if (n.min === 0) return; // may be absent
      const info = lits(n, insensitive);
      if (info.exact) addClause(out, info.exact);
      else collectClauses(n.body, insensitive, out); // present at least once
      return;
    }
    case 'alt':
      // one clause: a literal of some branch (each branch's best disjunction, as in lits())
      addClause(out, bestOf(lits(n, insensitive)));
      return;
    default:
      addClause(out, lits(n, insensitive).exact);
  }
}
