/**
 * printQuery: a parsed query written back as canonical text, so that
 * parseQuery(printQuery(q), { mode }) deep-equals q for every q parseQuery returns (in either
 * mode: regex nodes always print as `/…/`). The canonical form: filters first, in order, with
 * their canonical key (`-file:x`, the value quoted only when it must be); then the pattern,
 * with `NOT` (never `-`), ` OR `, a space for AND (written `AND` only between two bare terms,
 * which would otherwise join into one), and `( … )` with spaces inside where precedence needs
 * them. Quoted strings escape only what they must (`\"`, and `\\` before a quote, a backslash or
 * the end), so a bare word starting with `/` keeps reading as text.
 */
import { quoteText, scanBare, slashRegex } from './scan';
import type { ParsedQuery, QueryExpr, QueryFilter } from './types';

function printValue(value: string): string {
  const bare = value !== '' && !/[\s"]/.test(value) && scanBare(value, 0).end === value.length;
  return bare ? value : quoteText(value);
}

export function printFilter(filter: QueryFilter): string {
  return `${filter.negated ? '-' : ''}${filter.field}:${printValue(filter.value)}`;
}

function isBare(e: QueryExpr): boolean {
  return e.kind === 'term' && !e.quoted;
}

/** Does the printed form end with a bare term (which a following bare term would join)? */
function endsBare(e: QueryExpr): boolean {
  if (e.kind === 'not') return endsBare(e.item);
  return isBare(e);
}

function group(e: QueryExpr): string {
  return `( ${printExpr(e)} )`;
}

function printAnd(items: QueryExpr[]): string {
  let out = '';
  items.forEach((item, i) => {
    if (i > 0) out += endsBare(items[i - 1]) && isBare(item) ? ' AND ' : ' ';
    out += item.kind === 'or' ? group(item) : printExpr(item);
  });
  return out;
}

export function printExpr(e: QueryExpr): string {
  switch (e.kind) {
    case 'term':
      return e.quoted ? quoteText(e.value) : e.value;
    case 'regex':
      return slashRegex(e.pattern);
    case 'not':
      return `NOT ${e.item.kind === 'and' || e.item.kind === 'or' ? group(e.item) : printExpr(e.item)}`;
    case 'and':
      return printAnd(e.items);
    case 'or':
      return e.items.map(printExpr).join(' OR ');
  }
}

/** The canonical text of a parsed query ('' for the empty query). */
export function printQuery(q: ParsedQuery): string {
  const parts = q.filters.map(printFilter);
  if (q.expr) parts.push(printExpr(q.expr));
  return parts.join(' ');
}
