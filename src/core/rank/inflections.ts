/**
 * A word's other English inflections, for Ranked's light stemming: "places" also finds
 * "place", "sorted" finds "sort" and "sorting", "entries" finds "entry". Not a full stemmer:
 * only regular plural, past and -ing forms, and only forms that share the word's stem; the
 * ranker looks each up in the index and counts a match at INFLECTION_WEIGHT.
 */
export const INFLECTION_WEIGHT = 0.7;

/** The word's stem by its regular ending: sorts, sorted, sorting -> sort; entries -> entry; parses, parsed -> pars. */
export function stemOf(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('ied') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (/(ss|us|is)$/.test(w)) return w;
  else if (/(ches|shes|sses|xes|zes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s')) w = w.slice(0, -1);
  else if (w.endsWith('ed') && w.length > 4) w = undouble(w.slice(0, -2));
  else if (w.endsWith('ing') && w.length > 5) w = undouble(w.slice(0, -3));
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  return w;
}

function undouble(stem: string): string {
  return /([bdgklmnprt])\1$/.test(stem) ? stem.slice(0, -1) : stem;
}

interface FormTable {
  size: number;
  byStem: Map<string, string[]>;
}
const tables = new WeakMap<object, FormTable>();

/**
 * The words of `vocabulary` (an index's terms and identifier parts) sharing `word`'s stem, the
 * word itself left out. `key` caches the table; `size` says when the vocabulary grew.
 */
export function inflectionsIn(
  key: object,
  size: number,
  vocabulary: () => Iterable<string>,
  word: string,
): string[] {
  if (word.length <= 3 || !/^[a-z]+$/.test(word)) return [];
  let table = tables.get(key);
  if (!table || table.size !== size) {
    const byStem = new Map<string, string[]>();
    const seen = new Set<string>();
    for (const w of vocabulary()) {
      if (seen.has(w) || w.length <= 2 || !/^[a-z]+$/.test(w)) continue;
      seen.add(w);
      const stem = stemOf(w);
      let list = byStem.get(stem);
      if (!list) byStem.set(stem, (list = []));
      list.push(w);
    }
    tables.set(key, (table = { size, byStem }));
  }
  return (table.byStem.get(stemOf(word)) ?? []).filter((w) => w !== word);
}
