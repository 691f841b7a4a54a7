/**
 * Identifier parts for the people analyzer (Ranked mode): a token split at camelCase, digit
 * and `_` boundaries ("getUserById" -> get, user, by, id), parts lowercased. Parts shorter
 * than the tokenizer's MIN_TOKEN_CHARS are dropped (the "x" in "xAxis"), as they could never
 * be terms. The tokens themselves come from tokenize.ts.
 */
import { identifierWords } from '../source/identifier-words';
import { MIN_TOKEN_CHARS } from './tokenize';

/** A token's identifier parts: splitIdentifierRegex's answer, by a direct path for word tokens. */
export function splitIdentifier(token: string): string[] {
  // token is raw (case preserved); a word token ([A-Za-z0-9_]) takes the direct path
  const n = token.length;
  if (kindScratch.length < n + 1) kindScratch = new Uint8Array(Math.max(n + 1, kindScratch.length * 2));
  const kind = kindScratch; // 0 other (and the sentinel at n), 1 lower, 2 upper, 3 digit, 4 '_'
  kind[n] = 0;
  for (let i = 0; i < n; i++) {
    const c = token.charCodeAt(i);
    const k = c >= 97 && c <= 122 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 48 && c <= 57 ? 3 : c === 95 ? 4 : 0;
    if (k === 0) return splitIdentifierRegex(token);
    kind[i] = k;
  }
  // the boundaries the regex version inserts (between i and i + 1):
  //   [a-z0-9] then [A-Z];  [A-Z] then [A-Z][a-z];  [A-Za-z] then [0-9];  and '_' separates
  const parts: string[] = [];
  let start = 0;
  const push = (end: number) => {
    if (end - start >= MIN_TOKEN_CHARS) parts.push(token.slice(start, end).toLowerCase());
  };
  for (let i = 0; i < n; i++) {
    if (kind[i] === 4) {
      push(i);
      start = i + 1;
      continue;
    }
    if (i + 1 >= n) continue;
    const a = kind[i];
    const b = kind[i + 1];
    const cut =
      ((a === 1 || a === 3) && b === 2) ||
      (a === 2 && b === 2 && kind[i + 2] === 1) ||
      ((a === 1 || a === 2) && b === 3);
    if (cut) {
      push(i + 1);
      start = i + 1;
    }
  }
  push(n);
  return parts;
}

let kindScratch = new Uint8Array(64);

/** The reference definition of splitIdentifier (any string): the shared splitter, cut at white space and `_` only. */
export function splitIdentifierRegex(token: string): string[] {
  return identifierWords(token, { separators: /[\s_]+/, minChars: MIN_TOKEN_CHARS });
}

/** Whether a raw token is a compound identifier worth splitting (camelCase, snake_case, letters+digits). */
export function isCompound(raw: string): boolean {
  for (let i = 1; i < raw.length; i++) {
    const p = raw.charCodeAt(i - 1);
    const c = raw.charCodeAt(i);
    const pLower = p >= 97 && p <= 122;
    const pDigit = p >= 48 && p <= 57;
    const cUpper = c >= 65 && c <= 90;
    const cDigit = c >= 48 && c <= 57;
    if ((pLower && cUpper) || (cDigit && !pDigit && p !== 95) || (c === 95 && i > 0 && i < raw.length - 1))
      return true;
  }
  return false;
}
