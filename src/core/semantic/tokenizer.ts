/**
 * The Universal Sentence Encoder lite's tokenizer: a SentencePiece unigram model over the
 * `vocab.json` shipped with the weights ([piece, log-probability] pairs, the first six
 * reserved). Text is NFKC-normalised, a word separator (U+2581) is put in front and in place
 * of every space, and the segmentation with the highest total score wins (Viterbi over a
 * trie of the pieces). A character no piece starts with is the unknown id 0, and runs of
 * unknowns collapse to one. The ids must be exactly the ones the model was trained with:
 * adapters/embed/use-lite.test.ts checks them against @energetic-ai/embeddings' encoder.
 */

export type Vocabulary = ReadonlyArray<readonly [piece: string, score: number]>;

const SEPARATOR = '\u2581';
const RESERVED = 6;
const UNKNOWN = 0;

interface TrieNode {
  next: Map<string, TrieNode>;
  /** the vocabulary id of the piece ending here, or -1 */
  id: number;
}

const node = (): TrieNode => ({ next: new Map(), id: -1 });

export class UseTokenizer {
  private readonly root = node();

  constructor(private readonly vocab: Vocabulary) {
    if (!Array.isArray(vocab) || vocab.length <= RESERVED)
      throw new Error('The model vocabulary is empty or not a list of [piece, score] pairs');
    for (let i = RESERVED; i < vocab.length; i++) {
      let at = this.root;
      for (const ch of vocab[i][0]) {
        let n = at.next.get(ch);
        if (!n) at.next.set(ch, (n = node()));
        at = n;
      }
      at.id = i;
    }
  }

  /** The model's input ids for one text (empty text: no ids). */
  encode(text: string): number[] {
    const normal = text.normalize('NFKC');
    if (!normal.length) return [];
    const symbols = Array.from(SEPARATOR + normal.replace(/ /g, SEPARATOR));
    const n = symbols.length;
    // best[e]: the best score of a segmentation of symbols[0, e); 0 means none yet (scores are negative)
    const best = new Float64Array(n + 1);
    const lastId = new Int32Array(n + 1);
    const lastLen = new Int32Array(n + 1);
    // the pieces ending at each position, in order of their start (as the reference visits them)
    const ending: Array<Array<[start: number, id: number]>> = Array.from({ length: n + 1 }, () => []);
    for (let i = 0; i < n; i++) {
      let at = this.root.next.get(symbols[i]);
      let found = false;
      for (let j = i; at; j++) {
        if (at.id >= 0) {
          ending[j + 1].push([i, at.id]);
          found = true;
        }
        at = j + 1 < n ? at.next.get(symbols[j + 1]) : undefined;
      }
      if (!found) ending[i + 1].push([i, UNKNOWN]);
    }
    for (let e = 1; e <= n; e++) {
      for (const [start, id] of ending[e]) {
        const score = (id === UNKNOWN ? 0 : this.vocab[id][1]) + best[start];
        if (best[e] === 0 || score >= best[e]) {
          best[e] = score;
          lastId[e] = id;
          lastLen[e] = e - start;
        }
      }
    }
    const ids: number[] = [];
    for (let at = n; at > 0; at -= lastLen[at]) ids.push(lastId[at]);
    ids.reverse();
    // runs of unknown pieces are one unknown
    return ids.filter((id, k) => !(id === UNKNOWN && k > 0 && ids[k - 1] === UNKNOWN));
  }
}
