/**
 * Feature names and their spellings in code. "new checkout", "newCheckout", "NEW_CHECKOUT"
 * and "enable-new-checkout" are one feature: the name is split into words (spaces,
 * punctuation, `_`, `-`, camelCase and acronym boundaries), framing words such as
 * enable / feature / flag are dropped, and the words are matched in any case with at most
 * one `-`, `_`, `.` or space between them, as a whole run of identifier parts:
 * `newCheckout`, `NewCheckoutPage`, `FEATURE_NEW_CHECKOUT`, `new-checkout-flag` match;
 * `renewCheckout` and `checkoutable` do not. The last word may carry a plural `s` (or lose
 * one: "notifications" also finds `NotificationBell`).
 */
import { identifierWords } from '../source/identifier-words';

const LEADING_NOISE = new Set([
  'enable',
  'enabled',
  'disable',
  'feature',
  'features',
  'flag',
  'flags',
  'ff',
  'is',
  'use',
  'show',
  'has',
  'can',
  'toggle',
]);
const TRAILING_NOISE = new Set(['enabled', 'enable', 'disabled', 'flag', 'flags', 'feature', 'toggle', 'on']);

/** Words of an identifier or phrase, lower-cased: `enableNewCheckout` -> [enable, new, checkout]. */
export function splitWords(name: string): string[] {
  return identifierWords(name, { digits: false });
}

/** The words that identify a feature (framing words dropped while others remain). */
export function featureWords(name: string): string[] {
  const words = splitWords(name);
  while (words.length > 1 && LEADING_NOISE.has(words[0])) words.shift();
  while (words.length > 1 && TRAILING_NOISE.has(words[words.length - 1])) words.pop();
  return words;
}

const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** Representative spellings (for display; matching is broader, see the header). */
export function nameVariants(words: string[]): string[] {
  if (!words.length) return [];
  const camel = words[0] + words.slice(1).map(cap).join('');
  const pascal = words.map(cap).join('');
  const snake = words.join('_');
  const kebab = words.join('-');
  const screaming = snake.toUpperCase();
  const out = [
    camel,
    pascal,
    snake,
    kebab,
    screaming,
    words.join(' '),
    `enable${pascal}`,
    `is${pascal}Enabled`,
    `${camel}Enabled`,
    `${kebab}-flag`,
    `ENABLE_${screaming}`,
    `FEATURE_${screaming}`,
    `${screaming}_ENABLED`,
  ];
  return [...new Set(out)];
}

const isAlnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isUpper = (c: number) => c >= 65 && c <= 90;
const isLowerOrDigit = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

export interface NameMatcher {
  /** Every match as [start, end) offsets, in order. */
  findAll(text: string): Array<[number, number]>;
  /** Does the text contain the name anywhere (as identifier parts)? */
  test(text: string): boolean;
}

function escape(w: string): string {
  return w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function compileNameMatcher(words: string[]): NameMatcher {
  const parts = words.map(escape);
  const last = words[words.length - 1];
  // "notifications" also finds the singular; the plural is tried after each match.
  if (last.length > 3 && last.endsWith('s') && !last.endsWith('ss'))
    parts[parts.length - 1] = escape(last.slice(0, -1));
  // Literal words with optional one-character separators: linear-time in V8.
  const source = parts.join('[-_. ]?');
  const startOk = (text: string, s: number) => {
    if (s === 0) return true;
    const prev = text.charCodeAt(s - 1);
    if (!isAlnum(prev)) return true;
    const first = text.charCodeAt(s);
    if (!isUpper(first)) return false;
    if (isLowerOrDigit(prev)) return true;
    // acronym then word: `HTTPNotification` starts a part at N
    return s + 1 < text.length && isLowerOrDigit(text.charCodeAt(s + 1));
  };
  const endOk = (text: string, e: number) => {
    if (e >= text.length) return true;
    const next = text.charCodeAt(e);
    if (!isAlnum(next)) return true;
    return isUpper(next) && isLowerOrDigit(text.charCodeAt(e - 1));
  };
  const findAll = (text: string) => {
    const re = new RegExp(source, 'gi');
    const out: Array<[number, number]> = [];
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const s = m.index;
      let e = s + m[0].length;
      if (!startOk(text, s)) {
        re.lastIndex = s + 1;
        continue;
      }
      const c = text.charCodeAt(e);
      if ((c === 115 || c === 83) && endOk(text, e + 1)) e++;
      else if (!endOk(text, e)) {
        re.lastIndex = s + 1;
        continue;
      }
      out.push([s, e]);
      re.lastIndex = e;
    }
    return out;
  };
  return { findAll, test: (text) => findAll(text).length > 0 };
}
