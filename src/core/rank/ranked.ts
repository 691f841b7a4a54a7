/**
 * Ranked mode for people (the UI's "Ranked" search), on top of the contract index:
 * - a query word matches a term exactly, or as a part of a compound identifier
 *   ("user" matches getUserById, user_name, UserCard), so "user by id" finds getUserById;
 * - BM25 per query word, over the union of its matching terms (exact matches count fully,
 *   identifier parts count PART_WEIGHT), with the contract's k1, b and Lucene idf;
 * - boosts: the chunk's symbol name contains the word (SYMBOL_BOOST x the word's idf), and
 *   the symbol name equals the query read as one identifier (EXACT_SYMBOL_BOOST);
 * - priors (priors.ts): the score is multiplied by the chunk's kind, file-role and declaration
 *   prior unless the query names it, and the term statistics weigh each chunk by its prior;
 * - a sentence's stopwords are dropped (stopwords.ts).
 * Every hit carries its components, so the UI can show why it scored.
 * codebase_search keeps the seed's exact numbers; this ranker is only for people.
 * Words are terms of the index's own tokenizer (index.tokenizer), identifier parts included.
 */
import type { ChunkFilter, ChunkIndex, IndexedChunk } from './bm25';
import { BM25_B, BM25_K1, idf } from './bm25';
import type { FileRole } from '../source/file-role';
import { splitIdentifier } from './identifier-parts';
import { chunkPrior, queryPrior, rolesNamed, weightedStats } from './priors';
import { dropStopwords } from './stopwords';
import { INFLECTION_WEIGHT, inflectionsIn } from './inflections';
import { seedTokenizer, tokenize, tokenizeRaw, type Tokenizer } from './tokenize';

export const PART_WEIGHT = 0.7;
export const SYMBOL_BOOST = 1.5;
export const EXACT_SYMBOL_BOOST = 3;

export interface RankedComponent {
  /** the query word */
  word: string;
  /** index terms that matched it (exact term first) */
  via: string[];
  termFrequency: number;
  documentFrequency: number;
  idf: number;
  bm25: number;
  symbolBoost: number;
}

export interface RankedChunkHit {
  chunk: IndexedChunk;
  score: number;
  components: RankedComponent[];
  exactSymbol: boolean;
  /** what the score was multiplied by for the chunk's kind, file role and being a declaration (priors.ts) */
  prior: number;
  /** the parts of the prior below 1, as words: "key", "test file", "declaration" */
  discounts: string[];
  role: FileRole;
  declaration: boolean;
}

/**
 * Query words: tokens split at identifier boundaries ("getUserById" -> get, user, by, id), a
 * token without parts as itself; each the tokenizer's term. A sentence's stopwords are dropped
 * first (stopwords.ts; never a token written as an identifier). `joined`: the query's terms as
 * one identifier (what an exact symbol name equals).
 */
export function queryWords(
  query: string,
  tokenizer: Tokenizer = seedTokenizer,
): { words: string[]; joined: string } {
  const words: string[] = [];
  for (const raw of dropStopwords(tokenizeRaw(query, tokenizer))) {
    const parts = splitIdentifier(raw);
    if (parts.length > 1) for (const p of parts) words.push(tokenizer.term(p));
    else words.push(tokenizer.term(raw));
  }
  const unique = [...new Set(words)];
  const joined = tokenize(query, tokenizer).join('');
  return { words: unique, joined };
}

/** The index's chunks ranked for `query` (see the module note); the index's tokenizer reads the query. */
export function rankChunks(
  index: ChunkIndex,
  query: string,
  limit: number,
  filter?: ChunkFilter,
): RankedChunkHit[] {
  const tokenizer = index.tokenizer;
  const { words, joined } = queryWords(query, tokenizer);
  if (!words.length || !index.chunkCount) return [];
  const { weights, total } = weightedStats(index);
  const avgdl = index.avgdl();
  const scores = new Map<number, { score: number; components: RankedComponent[] }>();
  for (const word of words) {
    const exact = index.termIdOf(word);
    const viaParts = index.termsWithPart(word);
    const tfs = new Map<number, number>();
    const via = new Map<number, Set<number>>();
    const add = (t: number, weight: number) => {
      index.forEachPosting(t, (id, tf) => {
        tfs.set(id, (tfs.get(id) ?? 0) + tf * weight);
        let v = via.get(id);
        if (!v) via.set(id, (v = new Set()));
        v.add(t);
      });
    };
    if (exact !== undefined) add(exact, 1);
    for (const t of viaParts) if (t !== exact) add(t, PART_WEIGHT);
    // the word's other inflections ("places" -> place, "sorted" -> sort, sorting), as terms and as parts
    const counted = new Set<number>(viaParts);
    if (exact !== undefined) counted.add(exact);
    const addOnce = (t: number, weight: number) => {
      if (counted.has(t)) return;
      counted.add(t);
      add(t, weight);
    };
    for (const form of inflectionsIn(index, index.termCount, () => index.vocabulary(), word)) {
      const t = index.termIdOf(form);
      if (t !== undefined) addOnce(t, INFLECTION_WEIGHT);
      for (const c of index.termsWithPart(form)) addOnce(c, PART_WEIGHT * INFLECTION_WEIGHT);
    }
    if (!tfs.size) continue;
    // document frequency and count weighed by the chunks' priors: locale keys and snapshot
    // blocks holding a word do not make it common in the code (priors.ts)
    let df = 0;
    for (const id of tfs.keys()) df += weights[id];
    const w = idf(total, df);
    for (const [id, tf] of tfs) {
      const chunk = index.chunkById(id)!;
      const bm25 =
        (w * (tf * (BM25_K1 + 1))) / (tf + BM25_K1 * (1 - BM25_B + (BM25_B * chunk.tokenCount) / avgdl));
      const nameParts = symbolWords(chunk.symbolName, tokenizer);
      const symbolBoost = nameParts.has(word) ? SYMBOL_BOOST * w : 0;
      let s = scores.get(id);
      if (!s) scores.set(id, (s = { score: 0, components: [] }));
      s.score += bm25 + symbolBoost;
      const terms = [...via.get(id)!].map((t) => index.termString(t));
      s.components.push({
        word,
        via: terms,
        termFrequency: tf,
        documentFrequency: df,
        idf: w,
        bm25,
        symbolBoost,
      });
    }
  }
  const roles = rolesNamed(words);
  const hits: RankedChunkHit[] = [];
  for (const [id, s] of scores) {
    const chunk = index.chunkById(id)!;
    if (filter && !filter(chunk)) continue;
    const exactSymbol =
      symbolKey(chunk.symbolName, tokenizer) === joined ||
      symbolKey(chunk.symbolName.split('.').pop() ?? '', tokenizer) === joined;
    const chunkPriorValue = chunkPrior(chunk);
    // a block's symbol is its first word, not a name: only an exact symbol names it
    const named =
      exactSymbol || (chunk.chunkType !== 'block' && namesSymbol(chunk.symbolName, words, tokenizer));
    const { value: prior, discounts } = queryPrior(chunk, chunkPriorValue, named, roles);
    const score = s.score * (exactSymbol ? EXACT_SYMBOL_BOOST : 1) * prior;
    hits.push({
      chunk,
      score,
      components: s.components,
      exactSymbol,
      prior,
      discounts,
      role: chunkPriorValue.role,
      declaration: chunkPriorValue.declaration,
    });
  }
  hits.sort(
    (a, b) =>
      b.score - a.score ||
      (a.chunk.path < b.chunk.path
        ? -1
        : a.chunk.path > b.chunk.path
          ? 1
          : a.chunk.startLine - b.chunk.startLine),
  );
  return hits.slice(0, limit);
}

/** Every word of the symbol's name is a query word (the query names a key or a rule by its words). */
function namesSymbol(name: string, words: readonly string[], tokenizer: Tokenizer): boolean {
  const parts = symbolWords(name, tokenizer);
  if (!parts.size) return false;
  for (const p of parts) if (!words.includes(p) && !isCompoundOfWords(p, parts)) return false;
  return true;
}

/** A symbol's whole term ("imageexportdialog") beside its parts: named when its parts are. */
function isCompoundOfWords(term: string, parts: ReadonlySet<string>): boolean {
  for (const p of parts) if (p !== term && term.includes(p)) return true;
  return false;
}

/** per tokenizer: symbol name -> its words (terms and identifier parts' terms) */
const symbolWordCaches = new WeakMap<Tokenizer, Map<string, Set<string>>>();
function symbolWords(name: string, tokenizer: Tokenizer): Set<string> {
  let cache = symbolWordCaches.get(tokenizer);
  if (!cache) symbolWordCaches.set(tokenizer, (cache = new Map()));
  let s = cache.get(name);
  if (!s) {
    s = new Set<string>();
    for (const raw of tokenizeRaw(name, tokenizer)) {
      s.add(tokenizer.term(raw));
      for (const p of splitIdentifier(raw)) s.add(tokenizer.term(p));
    }
    if (cache.size > 50_000) cache.clear();
    cache.set(name, s);
  }
  return s;
}

function symbolKey(name: string, tokenizer: Tokenizer): string {
  return tokenize(name, tokenizer).join('');
}
