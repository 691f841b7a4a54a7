/**
 * English function words a question in plain language carries and code rarely means
 * ("how do I split an array into groups of a given size"). Ranked drops them from a
 * natural-language query; a word written as an identifier (camelCase, snake_case, digits, a
 * dot or a call) is never dropped, and a query of stopwords only keeps them all. Code words
 * that are also English (get, set, use, new, delete, this, return, if, for, while, not, and,
 * or) are deliberately not in the list: they name keywords, methods and operators.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the of to in on at by as is are was were be been being it its itself they them their theirs there these those ' +
    'this that which who whom whose what when where why how i me my we us our you your he him his she her ' +
    'do does did done doing have has had having can could should would will shall may might must ' +
    'into from with without within onto upon about above below over under after before between through during ' +
    'than then so such very just also only too any all each every both either neither some more most other others ' +
    'same own given one ones like via per whether else until while because though although ' +
    'way something anything everything thing things'
  ).split(' '),
);

/** How a raw query token is written: an identifier is never a stopword. */
export function looksLikeIdentifier(raw: string): boolean {
  return /[A-Z_$0-9.(]/.test(raw.slice(1)) || /^[_$]/.test(raw);
}

/**
 * The query's tokens without stopwords, when the query reads as a sentence (three or more
 * words); tokens written as identifiers always stay; a query of stopwords only is kept whole.
 */
export function dropStopwords(raw: readonly string[]): string[] {
  if (raw.length < 3) return [...raw];
  const kept = raw.filter((t) => looksLikeIdentifier(t) || !STOPWORDS.has(t.toLowerCase()));
  return kept.length ? kept : [...raw];
}
