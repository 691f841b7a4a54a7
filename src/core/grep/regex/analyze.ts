/**
 * Static analysis of the AST: simplification, nullability, the backtracking cost bound, the
 * required literals (for prefilters and trigram planning) and the first-character set.
 *
 * ## The cost bound ("proving the fast native path safe")
 *
 * V8's RegExp is a backtracking engine. Every construct we emit either consumes exactly one code
 * point (a literal, a class, `.`; none of them matches '\n') or is a constant-time zero-width
 * assertion (our own lookarounds for ^ $ \z, and \b \B). So a match attempt never leaves the line
 * it starts on, and its work is bounded by the number of distinct paths through the pattern's
 * choice points times the work per path (≤ line length + pattern size).
 *
 * For a line of length L we bound the number of paths from one start position by
 * P(node) = (L+1)^q × K, computed bottom-up:
 *   - char / class / assertion: 1 path (q=0, K=1);
 *   - concatenation: the product (q adds, K multiplies);
 *   - alternation of n branches: at most the sum of the branches' paths, so q = max q_i and
 *     K = Σ K_i (≤ n × the largest: "multiply by the branch count");
 *   - x*, x+, x{n,} on a single-code-point atom x: the only choice is how many iterations, and each
 *     iteration consumes one code point, so ≤ L+1 choices: q=1, K=1;
 *   - refinement: x* (as above) followed in the same concatenation by a non-nullable rest R whose
 *     possible first characters are disjoint from x (`\s+\w+`, `\w+\(`): with fewer iterations than
 *     the longest run, R would have to start on a character that x matched, so it fails at its
 *     first character (O(1)); only the longest run lets R proceed. Paths ≤ (L+1) + P(R)·(const), so
 *     q = max(1, q_R) and K = 2·K_R + 1 instead of the product;
 *   - x{n,m} on such an atom: m-n+1 choices: K = m-n+1;
 *   - X{n,m} on a multi-character / grouped X: X^n followed by m-n nested optional copies, at most
 *     (m-n+1) × P(X)^m paths (q = m·q_X, K = (m-n+1)·K_X^m; X? is the case n=0, m=1; X{n} has no
 *     choice of count: P(X)^n);
 *   - any unbounded quantifier on a multi-character or grouped X (`(a+)+`, `(ab)*`, `(?:x\w+)+`):
 *     Infinity. Here the number of ways to split a line between iterations is exponential.
 * A scan tries at most L start positions per line, so a line costs ≤ L × (L+1)^q × K steps (times
 * a constant for the per-step work). The matcher (matcher.ts) runs V8 only where that is at most
 * BUDGET = 2e7: everywhere when q = 0 and K ≤ 1e4 ('native', linear in the text), on lines up to
 * the length Lmax that satisfies the bound when q ≥ 1 ('mixed'; longer lines go to re2js), and
 * never when the bound is infinite ('re2').
 *
 * Two rewrites make more patterns provably safe, and they are applied before emitting: an
 * alternation whose branches all consume exactly one code point becomes one class (`(a|a)*` is
 * `[a]*`: every iteration consumes one code point whichever branch matches, so positions are the
 * same), and quantifiers on zero-width assertions collapse (`^*` is empty, `^+` is `^`).
 */
import type { Node } from './ast';
import { caseOrbit } from './casefold';
import { charSet, matchRanges, size, union, unionSets, type Ranges } from './charset';

// ---------------------------------------------------------------------------------------------
// Simplification

export function isSingle(n: Node): boolean {
  return n.type === 'char' || n.type === 'set';
}

function toSet(n: Node) {
  return n.type === 'set' ? n.set : charSet((n as { cp: number }).cp, (n as { fold: boolean }).fold);
}

function isZeroWidth(n: Node): boolean {
  switch (n.type) {
    case 'empty':
    case 'assert':
      return true;
    case 'concat':
      return n.items.every(isZeroWidth);
    case 'alt':
      return n.branches.every(isZeroWidth);
    case 'repeat':
      return isZeroWidth(n.body);
    default:
      return false;
  }
}

export function simplify(n: Node): Node {
  switch (n.type) {
    case 'concat': {
      const items: Node[] = [];
      for (const it of n.items) {
        const s = simplify(it);
        if (s.type === 'empty') continue;
        if (s.type === 'concat') items.push(...s.items);
        else items.push(s);
      }
      if (items.length === 0) return { type: 'empty' };
      return items.length === 1 ? items[0] : { type: 'concat', items };
    }
    case 'alt': {
      const branches: Node[] = [];
      for (const b of n.branches) {
        const s = simplify(b);
        if (s.type === 'alt') branches.push(...s.branches);
        else branches.push(s);
      }
      if (branches.every(isSingle)) {
        let set = toSet(branches[0]);
        let ok = true;
        for (let i = 1; i < branches.length && ok; i++) {
          const u = unionSets(set, toSet(branches[i]));
          if (u) set = u;
          else ok = false;
        }
        if (ok) return { type: 'set', set };
      }
      return { type: 'alt', branches };
    }
    case 'repeat': {
      const body = simplify(n.body);
      if (n.max === 0 || body.type === 'empty') return { type: 'empty' };
      if (isZeroWidth(body)) return n.min === 0 ? { type: 'empty' } : body;
      if (n.min === 1 && n.max === 1) return body;
      return { type: 'repeat', min: n.min, max: n.max, greedy: n.greedy, body };
    }
    default:
      return n;
  }
}

export function nullable(n: Node): boolean {
  switch (n.type) {
    case 'empty':
    case 'assert':
      return true;
    case 'char':
    case 'set':
      return false;
    case 'concat':
      return n.items.every(nullable);
    case 'alt':
      return n.branches.some(nullable);
    case 'repeat':
      return n.min === 0 || nullable(n.body);
  }
}

export function hasAssert(n: Node, kind: string): boolean {
  switch (n.type) {
    case 'assert':
      return n.kind === kind;
    case 'concat':
      return n.items.some((x) => hasAssert(x, kind));
    case 'alt':
      return n.branches.some((x) => hasAssert(x, kind));
    case 'repeat':
      return hasAssert(n.body, kind);
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Cost bound

export interface Cost {
  /** Number of (L+1) factors; Infinity = unbounded. */
  q: number;
  /** Constant factor. */
  K: number;
}

const INF: Cost = { q: Infinity, K: Infinity };
const MAX_Q = 16;
const MAX_K = 1e15;

function capped(c: Cost): Cost {
  return c.q > MAX_Q || c.K > MAX_K || !Number.isFinite(c.q) || !Number.isFinite(c.K) ? INF : c;
}

export function cost(n: Node): Cost {
  switch (n.type) {
    case 'empty':
    case 'assert':
    case 'char':
    case 'set':
      return { q: 0, K: 1 };
    case 'concat': {
      // Right to left, so that each item knows the rest of the concatenation after it.
      let acc: Cost = { q: 0, K: 1 };
      let restFirst: First = { set: [], nullable: true };
      for (let i = n.items.length - 1; i >= 0; i--) {
        const it = n.items[i];
        if (isDisjointRun(it, restFirst)) {
          // x* followed by a non-nullable rest that cannot start with an x: only the longest run
          // of x can let the rest proceed; every shorter run fails on the rest's first character.
          acc = capped({ q: Math.max(1, acc.q), K: 2 * acc.K + 1 });
        } else {
          const c = cost(it);
          acc = capped({ q: c.q + acc.q, K: c.K * acc.K });
        }
        const f = first(it);
        restFirst = f.nullable
          ? { set: f.set && restFirst.set ? union(f.set, restFirst.set) : null, nullable: restFirst.nullable }
          : f;
      }
      return acc;
    }
    case 'alt': {
      let q = 0;
      let K = 0;
      for (const b of n.branches) {
        const c = cost(b);
        q = Math.max(q, c.q);
        K += c.K;
      }
      return capped({ q, K });
    }
    case 'repeat': {
      if (isSingle(n.body)) {
        if (n.max === Infinity) return { q: 1, K: 1 };
        return { q: 0, K: n.max - n.min + 1 };
      }
      if (n.max === Infinity) return INF;
      const c = cost(n.body);
      if (!Number.isFinite(c.q)) return INF;
      if (n.min === n.max) return capped({ q: c.q * n.min, K: Math.pow(c.K, n.min) });
      return capped({ q: c.q * n.max, K: (n.max - n.min + 1) * Math.pow(c.K, n.max) });
    }
  }
}

/** An unbounded repeat of one code point whose set is disjoint from what must follow it. */
function isDisjointRun(it: Node, rest: First): boolean {
  if (it.type !== 'repeat' || it.max !== Infinity || !isSingle(it.body)) return false;
  if (rest.nullable || rest.set === null) return false;
  const own = matchRanges(toSet(it.body));
  return own !== null && !intersects(own, rest.set);
}

function intersects(a: Ranges, b: Ranges): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i + 1] < b[j]) i += 2;
    else if (b[j + 1] < a[i]) j += 2;
    else return true;
  }
  return false;
}

export const BUDGET = 2e7;

/** Longest line length L with L × (L+1)^q × K ≤ BUDGET (0 when even L=1 exceeds it). */
export function maxLineLength(c: Cost): number {
  if (!Number.isFinite(c.q)) return 0;
  const f = (L: number) => L * Math.pow(L + 1, c.q) * c.K;
  if (f(1) > BUDGET) return 0;
  let lo = 1;
  let hi = BUDGET;
  while (lo < hi) {
    const mid = Math.floor((lo + hi + 1) / 2);
    if (f(mid) <= BUDGET) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// ---------------------------------------------------------------------------------------------
// Required literals: literals.ts (re-exported here)

export { litScore, requiredClauses, requiredLiterals } from './literals';

// ---------------------------------------------------------------------------------------------
// First characters

interface First {
  /** Possible first code points; null = too many / unknown. */
  set: Ranges | null;
  nullable: boolean;
}

function first(n: Node): First {
  switch (n.type) {
    case 'empty':
    case 'assert':
      return { set: [], nullable: true };
    case 'char': {
      const o = n.fold ? caseOrbit(n.cp) : [n.cp];
      return { set: o.flatMap((m) => [m, m]).sort((a, b) => a - b), nullable: false };
    }
    case 'set':
      return { set: matchRanges(n.set), nullable: false };
    case 'concat': {
      let acc: Ranges | null = [];
      for (const it of n.items) {
        const f = first(it);
        acc = acc && f.set ? union(acc, f.set) : null;
        if (!f.nullable) return { set: acc, nullable: false };
      }
      return { set: acc, nullable: true };
    }
    case 'alt': {
      let acc: Ranges | null = [];
      let nul = false;
      for (const b of n.branches) {
        const f = first(b);
        acc = acc && f.set ? union(acc, f.set) : null;
        nul = nul || f.nullable;
      }
      return { set: acc, nullable: nul };
    }
    case 'repeat': {
      const f = first(n.body);
      return { set: f.set, nullable: n.min === 0 || f.nullable };
    }
  }
}

/** True when V8 can cheaply reject most start positions (few possible first characters). */
export function selectiveStart(n: Node, limit = 16): boolean {
  const f = first(n);
  return !f.nullable && f.set !== null && size(f.set) <= limit;
}

// ---------------------------------------------------------------------------------------------
// Case statistics

export function caseStats(n: Node): { folded: boolean; unfolded: boolean } {
  const out = { folded: false, unfolded: false };
  const walk = (x: Node): void => {
    switch (x.type) {
      case 'char':
        if (caseOrbit(x.cp).length > 1) {
          if (x.fold) out.folded = true;
          else out.unfolded = true;
        }
        return;
      case 'concat':
        x.items.forEach(walk);
        return;
      case 'alt':
        x.branches.forEach(walk);
        return;
      case 'repeat':
        walk(x.body);
        return;
      default:
        return;
    }
  };
  walk(n);
  return out;
}

/** The literal string when the node is a plain case-sensitive literal (no classes, no asserts). */
export function plainLiteral(n: Node): string | null {
  const items = n.type === 'concat' ? n.items : [n];
  let s = '';
  for (const it of items) {
    if (it.type !== 'char') return null;
    if (it.fold && caseOrbit(it.cp).length > 1) return null;
    s += String.fromCodePoint(it.cp);
  }
  return s.length ? s : null;
}

/**
 * The characters any hit can contain, for literal-anchored windows: an ASCII bitmap plus
 * whether any non-ASCII code unit may be part of a hit. null when windows would change
 * answers: line anchors (`^`, `$`, `\z`) look at the line's ends, which a window cuts off
 * (`\b`, `\B` and whole-word checks look one character out, which a window keeps).
 */
export interface HitAlphabet {
  ascii: Uint8Array;
  nonAscii: boolean;
}

export function hitAlphabet(n: Node): HitAlphabet | null {
  if (hasAssert(n, 'bol') || hasAssert(n, 'eol') || hasAssert(n, 'eot')) return null;
  const out: HitAlphabet = { ascii: new Uint8Array(128), nonAscii: false };
  const addCp = (cp: number) => {
    if (cp < 128) out.ascii[cp] = 1;
    else out.nonAscii = true;
  };
  const visit = (x: Node): void => {
    switch (x.type) {
      case 'char':
        for (const cp of x.fold ? caseOrbit(x.cp) : [x.cp]) addCp(cp);
        return;
      case 'set': {
        const set = x.set;
        if (set.neg || set.props.length) {
          // complements and Unicode properties: every character may be in a hit
          out.ascii.fill(1);
          out.nonAscii = true;
          return;
        }
        const r = set.ranges;
        for (let i = 0; i < r.length; i += 2) {
          for (let cp = r[i]; cp <= Math.min(r[i + 1], 127); cp++) out.ascii[cp] = 1;
          if (r[i + 1] >= 128) out.nonAscii = true;
        }
        return;
      }
      case 'concat':
        x.items.forEach(visit);
        return;
      case 'alt':
        x.branches.forEach(visit);
        return;
      case 'repeat':
        visit(x.body);
        return;
      default:
        return;
    }
  };
  visit(n);
  out.ascii[10] = 0; // no hit contains '\n'
  return out;
}
