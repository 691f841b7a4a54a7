/**
 * A boolean query's patterns as one regex source (the search runs once, for any of them; see
 * grep/bool-search.ts), written without compiling anything, so the page can build a request
 * without the regex engine.
 */
import type { QueryExpr } from './types';

/** Escape a literal for the regex dialect (the engine's parser: Rust/RE2 syntax). */
export function escapeRegex(literal: string): string {
  return literal.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** Every pattern of the expression, NOTed ones too, in order, as an alternation. */
export function alternationOf(expr: QueryExpr): string {
  const sources: string[] = [];
  const walk = (e: QueryExpr): void => {
    if (e.kind === 'term') sources.push(escapeRegex(e.value));
    else if (e.kind === 'regex') sources.push(`(?:${e.pattern})`);
    else if (e.kind === 'not') walk(e.item);
    else e.items.forEach(walk);
  };
  walk(expr);
  return sources.join('|');
}
