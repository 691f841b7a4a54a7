/**
 * Quick-open ranking: a file-name fuzzy match in the spirit of VS Code's and fzf's.
 * The query's characters must appear in order (case-insensitive). Two alignments are
 * scored — inside the file name only, and greedy over the whole path — and the better
 * wins. Word starts (after / _ - . or a camelCase hump), consecutive runs and hits in
 * the file name score up; gaps and long paths score down. Paths are prepared once
 * (lower-cased, file-name offset) so a query over 100k paths stays in a few ms.
 */
export interface PreparedPath {
  path: string;
  lower: string;
  /** Index where the file name starts. */
  base: number;
}

export interface FuzzyHit {
  path: string;
  score: number;
  positions: number[];
}

export function preparePath(path: string): PreparedPath {
  return { path, lower: path.toLowerCase(), base: path.lastIndexOf('/') + 1 };
}

function isWordStart(path: string, i: number): boolean {
  if (i === 0) return true;
  const prev = path.charCodeAt(i - 1);
  // '/', '_', '-', '.', ' '
  if (prev === 47 || prev === 95 || prev === 45 || prev === 46 || prev === 32) return true;
  const c = path.charCodeAt(i);
  return c >= 65 && c <= 90 && prev >= 97 && prev <= 122;
}

/** Greedy subsequence match of `q` in `lower` from `from`; null when absent. */
function align(lower: string, q: string, from: number): number[] | null {
  const positions: number[] = [];
  let at = from;
  for (let k = 0; k < q.length; k++) {
    const i = lower.indexOf(q[k], at);
    if (i < 0) return null;
    positions.push(i);
    at = i + 1;
  }
  return positions;
}

/**
 * Improve a greedy alignment: for each character, prefer a later word-start occurrence
 * when that still leaves room for the rest (one backward pass keeps it linear-ish).
 */
function preferWordStarts(p: PreparedPath, q: string, positions: number[]): number[] {
  const out = positions.slice();
  for (let k = q.length - 1; k >= 0; k--) {
    const limit = k + 1 < q.length ? out[k + 1] : p.lower.length;
    if (isWordStart(p.path, out[k])) continue;
    if (k > 0 && out[k] === out[k - 1] + 1) continue; // keep consecutive runs
    for (let i = out[k] + 1; i < limit; i++) {
      if (p.lower[i] === q[k] && isWordStart(p.path, i)) {
        out[k] = i;
        break;
      }
    }
  }
  return out;
}

function scorePositions(p: PreparedPath, positions: number[]): number {
  let score = 0;
  for (let k = 0; k < positions.length; k++) {
    const i = positions[k];
    score += 1;
    if (k > 0 && i === positions[k - 1] + 1) score += 5;
    else if (k > 0) score -= Math.min(3, (i - positions[k - 1] - 1) * 0.2);
    if (isWordStart(p.path, i)) score += 4;
    if (i >= p.base) score += 3;
  }
  score -= p.path.length * 0.02;
  return score;
}

export function fuzzyScore(p: PreparedPath, query: string): FuzzyHit | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  if (!q) return { path: p.path, score: 0, positions: [] };
  const whole = align(p.lower, q, 0);
  if (!whole) return null;
  let best = preferWordStarts(p, q, whole);
  let score = scorePositions(p, best);
  const inName = align(p.lower, q, p.base);
  if (inName) {
    const named = preferWordStarts(p, q, inName);
    const s = scorePositions(p, named) + 2;
    if (s > score) {
      best = named;
      score = s;
    }
  }
  const name = p.lower.slice(p.base);
  if (name === q || name.replace(/\.[^.]*$/, '') === q) score += 50;
  else if (name.startsWith(q)) score += 20;
  return { path: p.path, score, positions: best };
}

/** Best `limit` hits, highest score first; ties by shorter path, then name order. */
export function fuzzyRank(paths: PreparedPath[], query: string, limit: number): FuzzyHit[] {
  const hits: FuzzyHit[] = [];
  for (const p of paths) {
    const hit = fuzzyScore(p, query);
    if (hit) hits.push(hit);
  }
  hits.sort(
    (a, b) =>
      b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
  return hits.slice(0, limit);
}
