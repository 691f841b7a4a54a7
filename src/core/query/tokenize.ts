/**
 * tokenizeQuery: the written query as coloured pieces for the search box. It never throws: a
 * piece the lexer cannot read is an `error` token, and when the pieces read but do not parse
 * (an unbalanced parenthesis, a dangling operator, a filter inside parentheses, an invalid regex
 * in regex mode) the token at parseQuery's error column becomes an `error` token. Tokens are in
 * order, do not overlap, and together cover every character but the whitespace between them.
 */
import { QuarryError } from '../errors';
import { type Lexeme, lexQuery } from './lex';
import { parseLexemes } from './parse';
import type { ParseQueryOptions, QueryMode, QueryToken } from './types';

type Kind = QueryToken['kind'];

function tok(start: number, end: number, kind: Kind): QueryToken {
  return { start, end, kind };
}

/** A `-` that negates, then the rest. */
function negatedPiece(lexeme: Lexeme, negated: boolean, kind: Kind): QueryToken[] {
  if (!negated) return [tok(lexeme.start, lexeme.end, kind)];
  return [tok(lexeme.start, lexeme.start + 1, 'operator'), tok(lexeme.start + 1, lexeme.end, kind)];
}

function tokensOf(lexeme: Lexeme, mode: QueryMode): QueryToken[] {
  switch (lexeme.t) {
    case 'word':
      return [tok(lexeme.start, lexeme.end, mode === 'regex' ? 'regex' : 'term')];
    case 'quoted':
      return negatedPiece(lexeme, lexeme.negated, 'quoted');
    case 'regex':
      return negatedPiece(lexeme, lexeme.negated, 'regex');
    case 'filter':
      return [tok(lexeme.start, lexeme.valueStart, 'filter'), tok(lexeme.valueStart, lexeme.end, 'value')];
    case 'op':
      return [tok(lexeme.start, lexeme.end, 'operator')];
    case 'open':
    case 'close':
      return [tok(lexeme.start, lexeme.end, 'paren')];
    case 'error':
      return lexeme.valueStart === undefined
        ? [tok(lexeme.start, lexeme.end, 'error')]
        : [tok(lexeme.start, lexeme.valueStart, 'filter'), tok(lexeme.valueStart, lexeme.end, 'error')];
  }
}

/** The query's tokens for colouring (UTF-16 offsets). Never throws. */
export function tokenizeQuery(text: string, options: ParseQueryOptions = {}): QueryToken[] {
  const mode = options.mode ?? 'literal';
  const lexemes = lexQuery(text);
  const tokens = lexemes.flatMap((l) => tokensOf(l, mode));
  if (lexemes.some((l) => l.t === 'error')) return tokens;
  try {
    parseLexemes(text, lexemes, mode);
  } catch (err) {
    const column = err instanceof QuarryError ? err.data.column : undefined;
    if (typeof column !== 'number') return tokens;
    const at = tokens.find((t) => t.start <= column - 1 && column - 1 < t.end);
    if (at) at.kind = 'error';
  }
  return tokens;
}
