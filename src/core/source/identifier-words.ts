/**
 * The one identifier splitter: words of an identifier or phrase, cut at camelCase humps
 * (`getUser` -> get, user), acronym ends (`HTMLParser` -> html, parser), optionally where
 * letters meet digits (`utf8` -> utf, 8), and at separators; words lower-cased. Ranked
 * search's identifier parts (rank/identifier-parts.ts) and feature names (analyze/names.ts)
 * are this rule with their options.
 */

export interface IdentifierWordOptions {
  /** Cut where a letter meets a digit (`doc2` -> doc, 2). Default true. */
  digits?: boolean;
  /** What separates words besides the humps. Default: any run of characters but [A-Za-z0-9]. */
  separators?: RegExp;
  /** Drop words shorter than this. Default 1 (only empty words are dropped). */
  minChars?: number;
}

const NOT_ALNUM = /[^A-Za-z0-9]+/;

/** Words of `text`, lower-cased: `parseHTMLDoc2Go` -> [parse, html, doc, 2, go]. */
export function identifierWords(text: string, options: IdentifierWordOptions = {}): string[] {
  const { digits = true, separators = NOT_ALNUM, minChars = 1 } = options;
  let spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  if (digits) spaced = spaced.replace(/([A-Za-z])([0-9])/g, '$1 $2');
  return spaced
    .split(separators)
    .filter((w) => w.length >= Math.max(1, minChars))
    .map((w) => w.toLowerCase());
}
