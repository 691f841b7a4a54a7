/**
 * The snippet marker: which parts of a text a ranked hit's terms are. A token is marked when
 * its term is one of `terms`, so the marks are exactly the tokens the index counted.
 */
import { seedTokenizer, type Tokenizer } from './tokenize';

/** [start, end) UTF-16 ranges of every token of `text` whose term is in `terms`, in order. */
export function markTerms(
  text: string,
  terms: ReadonlySet<string>,
  tokenizer: Tokenizer = seedTokenizer,
): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  if (!terms.size) return ranges;
  tokenizer.forEachToken(text, 0, text.length, (start, end) => {
    if (terms.has(tokenizer.term(text.slice(start, end)))) ranges.push([start, end]);
  });
  return ranges;
}
