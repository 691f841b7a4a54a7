/**
 * Related code for people (the Related panel beside the file viewer). The seed's
 * `ChunkIndex.related()` (find_related's formula: the candidate's repeated tokens over the
 * union of the two term sets) keeps its exact numbers; this ranking is only for the panel.
 *
 * Why another formula: the seed's score sums the candidate's tf of the seed's terms, so a chunk
 * that contains everything wins. On excalidraw, related to actionZoomToFitSelectionInViewport
 * came the 13,000-line App class first and the sibling actionZoomToFitSelection seventh; on
 * three.js, every method's related list is the big math classes (Vector4, Vector2, Box2, ...)
 * rather than their twin methods.
 *
 *   similarity = cosine of the two chunks' term vectors, w(t) = idf(t) * (1 + ln tf),
 *                idf the index's (Lucene's, over every live chunk): a chunk is a direction, so
 *                a big one holding all of the seed's words (and thousands of others) is far
 *                from it, and a rare shared word counts more than `this` or `return`;
 *   score      = similarity * siblings * size * container, where
 *     siblings  = 1 + SAME_CONTAINER (inside the chunk that holds the seed: methods of one class)
 *                     or SAME_FILE or SAME_FOLDER, + SAME_KIND (same chunk type),
 *                     + NAME_WEIGHT * Jaccard of the two names' identifier parts (last dotted
 *                     segment: addScaledVector vs add -> 1/3; Box2 vs Box3 -> 1, digits are no parts);
 *     size      = 1 up to SIZE_RATIO times the seed's tokens (or the average chunk's, if more:
 *                 a one-line delegate's callee is not "much bigger"), then sqrt(SIZE_RATIO / ratio);
 *     container = CONTAINER_FACTOR for a chunk that contains other chunks when the seed does
 *                 not (a class for a method: its members are the better answers).
 * The seed, chunks that contain it and chunks it contains are left out, as in find_related.
 * Ties break by path, then start line. Candidates come from the postings of the seed's terms;
 * the vector lengths of all chunks are one pass over every posting, kept per index state.
 *
 * Cosine rather than a normalised overlap (shared idf mass over both sides' lengths): it needs
 * the candidate's whole vector, which the postings give once per index state, and it is the one
 * that makes a 40-token twin beat a 1,000-line class by construction. On the golden pairs
 * (related-golden.test.ts) the cosine alone puts 18 of 21 wanted chunks in the top 3 (the seed's
 * formula 4); the sibling boosts and the two penalties order close calls (a same-class method
 * over a same-named one elsewhere) and bury containers (the excalidraw miniature in
 * related-people.test.ts). The honest misses are one-line delegates, whose callee is long and
 * shares few words: there is no call graph here.
 *
 * Every hit says why (`reasons`: "same class", "same file", "similar name", ...) and carries
 * its factors, so the panel can show them.
 *
 * What a code anchor never lists (issue 31, `besideAnchor`): a config key, a style rule or a
 * block of lines (a file without a parser), when the seed is code (not itself a key, rule,
 * block, heading or HTML element); a snapshot or a translation, when the seed's file is source.
 * On vue core, 6 of the first 10 related to `ShallowReactiveBrandClass` (a class whose member is
 * `private [ShallowReactiveBrand]?: true`) were package.json `"private": true` keys. A key,
 * rule or block seed lists every kind, as before. The app's panel, related_code and the CLI
 * all come here, so the rule holds for each.
 */
import type { ChunkType } from '../chunk/types';
import { fileRole, type FileRole } from '../source/file-role';
import type { ChunkIndex, IndexedChunk } from './bm25';
import { idf } from './bm25-score';
import { splitIdentifier } from './identifier-parts';
import { tokenize, tokenizeRaw, type Tokenizer } from './tokenize';

/** sibling boosts, added to 1 and multiplied into the similarity */
export const SAME_CONTAINER = 0.3;
export const SAME_FILE = 0.2;
export const SAME_FOLDER = 0.1;
export const SAME_KIND = 0.1;
export const NAME_WEIGHT = 0.5;
/** candidates up to this many times the seed's tokens (or the average chunk's, if more) are not penalised for size */
export const SIZE_RATIO = 4;
/** a container for a seed that is not one */
export const CONTAINER_FACTOR = 0.5;

/** Kinds that are not code: a config key, a style rule, a block of lines, a Markdown heading, an HTML element. */
export const NOT_CODE_KINDS: ReadonlySet<ChunkType> = new Set<ChunkType>([
  'key',
  'rule',
  'block',
  'section',
  'element',
]);
/** Kinds a code seed does not list. */
export const DATA_KINDS: ReadonlySet<ChunkType> = new Set<ChunkType>(['key', 'rule', 'block']);
/** File roles a seed in a source file does not list. */
export const NOT_BESIDE_SOURCE: ReadonlySet<FileRole> = new Set<FileRole>(['snapshot', 'locale']);

/**
 * Whether a chunk may be listed beside `seed` (see the module note): null when every chunk may
 * (a key, rule or block seed outside a source file), else the test, each path's role read once.
 */
export function besideAnchor(
  seed: Pick<IndexedChunk, 'path' | 'chunkType'>,
): ((c: Pick<IndexedChunk, 'path' | 'chunkType'>) => boolean) | null {
  const code = !NOT_CODE_KINDS.has(seed.chunkType);
  const source = fileRole(seed.path) === 'source';
  if (!code && !source) return null;
  const allowedPath = new Map<string, boolean>();
  return (c) => {
    if (code && DATA_KINDS.has(c.chunkType)) return false;
    if (!source) return true;
    let ok = allowedPath.get(c.path);
    if (ok === undefined) allowedPath.set(c.path, (ok = !NOT_BESIDE_SOURCE.has(fileRole(c.path))));
    return ok;
  };
}

export interface RelatedFactors {
  /** cosine of the tf-idf vectors, 0..1 */
  similarity: number;
  /** 1 + the sibling boosts */
  siblings: number;
  size: number;
  container: number;
}

export interface RelatedChunkHit {
  chunk: IndexedChunk;
  score: number;
  factors: RelatedFactors;
  /** why it is a sibling, for people: "same class", "same file", "same folder", "same kind", "similar name", "contains others" */
  reasons: string[];
  /** the seed's terms the chunk has, sorted */
  sharedTerms: string[];
}

/** 1 + ln(tf) for small tf, without a log per posting */
const SAT = new Float64Array(1024).map((_, tf) => (tf ? 1 + Math.log(tf) : 0));
const sat = (tf: number) => (tf < 1024 ? SAT[tf] : 1 + Math.log(tf));

/** per index: each chunk's tf-idf vector length, for the index state it was computed at */
const normCache = new WeakMap<ChunkIndex, { span: number; live: number; norms: Float64Array }>();

/** Every chunk's ||w||: one pass over all postings; recomputed when the index changed (ids or live count). */
export function chunkNorms(index: ChunkIndex): Float64Array {
  const span = index.idSpan;
  const live = index.chunkCount;
  const cached = normCache.get(index);
  if (cached && cached.span === span && cached.live === live) return cached.norms;
  const sq = new Float64Array(span);
  for (let t = 0, n = index.termCount; t < n; t++) {
    const df = index.documentFrequency(t);
    if (!df) continue;
    const w = idf(live, df);
    index.forEachPosting(t, (id, tf) => {
      const x = w * sat(tf);
      sq[id] += x * x;
    });
  }
  for (let id = 0; id < span; id++) sq[id] = Math.sqrt(sq[id]);
  normCache.set(index, { span, live, norms: sq });
  return sq;
}

let dotScratch = new Float64Array(0);

const within = (inner: IndexedChunk, outer: IndexedChunk) =>
  inner.startLine >= outer.startLine && inner.endLine <= outer.endLine;
const sameRange = (a: IndexedChunk, b: IndexedChunk) =>
  a.startLine === b.startLine && a.endLine === b.endLine;
const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);

/** The chunks of `path` that contain another chunk of it (a class, a module, an impl). */
function containersOf(index: ChunkIndex, path: string): Set<IndexedChunk> {
  const chunks = [...index.chunksOf(path)].sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  const out = new Set<IndexedChunk>();
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i];
    // sorted by start, longest first: anything inside c follows it before the first chunk starting past c's end
    for (let j = i + 1; j < chunks.length && chunks[j].startLine <= c.endLine; j++) {
      if (within(chunks[j], c) && !sameRange(chunks[j], c)) {
        out.add(c);
        break;
      }
    }
  }
  return out;
}

/** per tokenizer: symbol name -> the identifier parts of its last dotted segment */
const namePartCaches = new WeakMap<Tokenizer, Map<string, Set<string>>>();

/** The identifier parts of a symbol name's last dotted segment ("Vector3.addScaledVector" -> add, scaled, vector). */
export function nameParts(symbolName: string, tokenizer: Tokenizer): Set<string> {
  let cache = namePartCaches.get(tokenizer);
  if (!cache) namePartCaches.set(tokenizer, (cache = new Map()));
  let out = cache.get(symbolName);
  if (out) return out;
  out = new Set<string>();
  for (const raw of tokenizeRaw(symbolName.slice(symbolName.lastIndexOf('.') + 1), tokenizer)) {
    const parts = splitIdentifier(raw);
    if (parts.length) for (const p of parts) out.add(tokenizer.term(p));
    else out.add(tokenizer.term(raw));
  }
  if (cache.size > 50_000) cache.clear();
  cache.set(symbolName, out);
  return out;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (!a.size || !b.size) return 0;
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared);
}

/** The seed's vector: the terms of its text that the index knows, their weights, and its squared norm. */
function seedVector(
  index: ChunkIndex,
  seedText: string,
): { seedTerms: Array<{ t: number; idf: number; w: number }>; seedSq: number } {
  const N = index.chunkCount;
  const seedTf = new Map<string, number>();
  for (const term of tokenize(seedText, index.tokenizer)) seedTf.set(term, (seedTf.get(term) ?? 0) + 1);
  const seedTerms: Array<{ t: number; idf: number; w: number }> = [];
  let seedSq = 0;
  for (const [term, tf] of seedTf) {
    const t = index.termIdOf(term);
    if (t === undefined) continue;
    const df = index.documentFrequency(t);
    if (!df) continue;
    const w = idf(N, df);
    const ws = w * sat(tf);
    seedTerms.push({ t, idf: w, w: ws });
    seedSq += ws * ws;
  }
  return { seedTerms, seedSq };
}

/** For a chunk c: 1 + its sibling boosts next to `seed` (its reasons into `why`). */
function siblingBoosts(
  index: ChunkIndex,
  seed: IndexedChunk,
): (c: IndexedChunk, why: string[] | null) => number {
  const tokenizer = index.tokenizer;
  const seedFolder = folderOf(seed.path);
  // the chunk that holds the seed (innermost): its other members are the seed's siblings
  let parent: IndexedChunk | null = null;
  for (const c of index.chunksOf(seed.path)) {
    if (c !== seed && within(seed, c) && !sameRange(seed, c) && (!parent || within(c, parent))) parent = c;
  }
  const seedName = nameParts(seed.symbolName, tokenizer);
  return (c, why) => {
    let siblings = 1;
    if (c.path === seed.path && parent && within(c, parent)) {
      siblings += SAME_CONTAINER;
      why?.push(`same ${parent.chunkType}`);
    } else if (c.path === seed.path) {
      siblings += SAME_FILE;
      why?.push('same file');
    } else if (folderOf(c.path) === seedFolder) {
      siblings += SAME_FOLDER;
      why?.push('same folder');
    }
    if (c.chunkType === seed.chunkType) {
      siblings += SAME_KIND;
      why?.push('same kind');
    }
    const names = jaccard(seedName, nameParts(c.symbolName, tokenizer));
    if (names > 0) {
      siblings += NAME_WEIGHT * names;
      why?.push('similar name');
    }
    return siblings;
  };
}

/**
 * Chunks related to `seed` for people (see the module note). `seedText` is the seed chunk's
 * text (its file's lines as indexed); at most `limit` hits (at least 1). `allowed` says which
 * chunks may be listed (besideAnchor's rule by default; null lists every kind and role).
 */
export function relatedChunks(
  index: ChunkIndex,
  seed: IndexedChunk,
  seedText: string,
  limit: number,
  allowed: ((c: IndexedChunk) => boolean) | null = besideAnchor(seed),
): RelatedChunkHit[] {
  const N = index.chunkCount;
  if (!N) return [];
  const { seedTerms, seedSq } = seedVector(index, seedText);
  if (!seedTerms.length) return [];
  const norms = chunkNorms(index);

  // dot products with every chunk that shares a term
  if (dotScratch.length < index.idSpan)
    dotScratch = new Float64Array(Math.max(index.idSpan, dotScratch.length * 2));
  const dot = dotScratch;
  const touched: number[] = [];
  for (const { t, idf: w, w: ws } of seedTerms) {
    const f = w * ws;
    index.forEachPosting(t, (id, tf) => {
      if (dot[id] === 0) touched.push(id);
      dot[id] += f * sat(tf);
    });
  }

  const seedNorm = Math.sqrt(seedSq);
  const seedIsContainer = containersOf(index, seed.path).has(seed);
  const containers = new Map<string, Set<IndexedChunk>>();
  // "much bigger" than the seed and than a typical chunk: a one-line delegate's callee is not
  const sizeBase = Math.max(seed.tokenCount, index.avgdl(), 1);
  const siblingsOf = siblingBoosts(index, seed);

  // every candidate's score before the container factor (which only lowers it)
  const scored: Array<{
    id: number;
    chunk: IndexedChunk;
    similarity: number;
    size: number;
    before: number;
    score: number;
    container: number;
  }> = [];
  for (const id of touched) {
    const d = dot[id];
    dot[id] = 0;
    const chunk = index.chunkById(id)!;
    if (chunk.path === seed.path && (within(seed, chunk) || within(chunk, seed))) continue;
    if (allowed && !allowed(chunk)) continue;
    const similarity = norms[id] > 0 ? Math.min(1, d / (seedNorm * norms[id])) : 0;
    const ratio = chunk.tokenCount / sizeBase;
    const size = ratio > SIZE_RATIO ? Math.sqrt(SIZE_RATIO / ratio) : 1;
    const before = similarity * siblingsOf(chunk, null) * size;
    scored.push({ id, chunk, similarity, size, before, score: before, container: 1 });
  }
  const n = Math.max(1, limit);
  const order = (a: { score: number; chunk: IndexedChunk }, b: { score: number; chunk: IndexedChunk }) =>
    b.score - a.score ||
    (a.chunk.path < b.chunk.path ? -1 : a.chunk.path > b.chunk.path ? 1 : 0) ||
    a.chunk.startLine - b.chunk.startLine;
  scored.sort(order);
  // the container factor, for the candidates it can matter for: one scoring below CONTAINER_FACTOR
  // times the n-th best before it cannot reach the top n (each of those keeps at least that much)
  let pool = scored;
  if (!seedIsContainer && scored.length) {
    const floor = scored[Math.min(n, scored.length) - 1].before * CONTAINER_FACTOR;
    pool = scored.filter((s) => s.before >= floor);
    for (const s of pool) {
      let set = containers.get(s.chunk.path);
      if (!set) containers.set(s.chunk.path, (set = containersOf(index, s.chunk.path)));
      if (set.has(s.chunk)) {
        s.container = CONTAINER_FACTOR;
        s.score = s.before * CONTAINER_FACTOR;
      }
    }
    pool.sort(order);
  }
  const top = pool.slice(0, n).map((s) => {
    const reasons: string[] = [];
    const siblings = siblingsOf(s.chunk, reasons);
    if (s.container !== 1) reasons.push('contains others');
    const hit: RelatedChunkHit = {
      chunk: s.chunk,
      score: s.score,
      factors: { similarity: s.similarity, siblings, size: s.size, container: s.container },
      reasons,
      sharedTerms: [],
    };
    return { id: s.id, hit };
  });

  // the shared terms of the hits shown: one more walk of the seed's postings
  const byId = new Map(top.map(({ id, hit }) => [id, hit.sharedTerms]));
  for (const { t } of seedTerms) {
    const term = index.termString(t);
    index.forEachPosting(t, (id) => byId.get(id)?.push(term));
  }
  return top.map(({ hit }) => {
    hit.sharedTerms.sort();
    return hit;
  });
}
