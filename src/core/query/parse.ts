/**
 * parseQuery: the search box's query language (issue 35), read the way Sourcegraph and GitHub
 * code search users expect. The decisions:
 *
 * Tokens. Whitespace (JavaScript's `\s`) separates tokens. Columns in errors are 1-based UTF-16.
 *
 * Filters. `key:value` where the key (letters only, any case) is a filter name or alias:
 * `file:` (`path:`, `f:`), `lang:` (`language:`, `l:`), `case:`, `root:` (`repo:`, `r:`),
 * `type:`, `select:`, `count:`, `author:`, `before:` (`until:`), `after:` (`since:`). A leading
 * `-` or a `NOT` before it negates it (`NOT -file:x` is not negated). The value is a quoted
 * string (`file:"my dir/x.ts"`) or runs to whitespace (or to a `)` that closes nothing opened in
 * it). Checked values: `type:` file|symbol|commit|diff, `case:` yes|no, `select:` file (these are
 * lowercased), `count:` a positive whole number or `all`, `before:`/`after:` an ISO date
 * `YYYY-MM-DD` with an optional time (`2024-05-31T12:00`, `…Z`, `…+02:00`) or an age counted
 * back from today: `3d`, `2w`, `6m` (months), `1y`. Other values are free text for the caller.
 * Filters apply to the whole query: they may stand anywhere at the top level (before, between
 * or after patterns, beside `AND`, on either side of an `OR`: `a OR b lang:go` is
 * `(a OR b) lang:go`), are kept in the order written (repeats too), and are an error inside
 * parentheses or as a whole side of `OR` (`a OR lang:go`).
 * A `key:` that is not a filter is text (`http://x`, `std::vector`, `a:b`), unless the key has 3
 * or more letters and is a near-miss of a name (suggestFilter: one edit for names of up to 4
 * letters, two for longer, a swap of neighbours counting one): `lnag:x` is an error.
 *
 * Patterns. `"a phrase"` is a literal (`\"` a quote, `\\` a backslash, other backslashes are
 * themselves; `""` is an error). `/regex/` runs to the next unescaped `/` followed by
 * whitespace, `)` or the end, so it may hold spaces; `\/` is a slash (held as `/`, the same
 * regex); a backslash always pairs with the next character. `/a/i` and `/usr/bin` have no
 * closing slash and are text; so is `//`. A regex must compile (with the `u` flag, else
 * without). Bare words are the rest: in `literal` mode (the default) consecutive bare words
 * are ONE term holding the text exactly as typed from the first to the last (`foo  bar`), as
 * the box has always searched; in `regex` mode the same run is one regex. A filter, quote,
 * regex, operator or parenthesis ends a run (`a lang:go b` is `a AND b`). Quotes inside a bare
 * word are plain characters (`foo"bar`), and so is a `-` before a bare word (`-v`, `--force`);
 * `-"phrase"` and `-/re/` mean NOT.
 *
 * Parentheses. A `(` that starts a token groups, unless the token's parentheses balance by its
 * end: then the token is a bare word (`foo(bar)`, `(a|b)`, `(x)` are patterns in both modes, so
 * `foo(bar|baz)` survives in regex mode); `( a OR b )` and `(a OR b)` group. Inside a bare word
 * a `)` that closes nothing ends the word and closes a group. Unbalanced and empty parentheses
 * are errors (quote the text to search for a parenthesis).
 *
 * Operators. `AND`, `OR`, `NOT`, uppercase only (`and`, `or`, `not` are words). NOT binds
 * tightest, then AND, then OR; adjacent patterns that are separate tokens (`"a" "b"`,
 * `foo /bar/`) are ANDed. An operator with nothing on a side is an error (quote it to search
 * for the word). Nested and/or of the same kind are flattened; a lone pattern is not wrapped.
 * An empty query parses to `{ filters: [], expr: null }`.
 */
import { type ErrorLexeme, type Lexeme, lexQuery } from './lex';
import { normalizeRegex, queryError, regexError } from './scan';
import type { ParseQueryOptions, ParsedQuery, QueryExpr, QueryFilter, QueryMode } from './types';

type FilterLexeme = Extract<Lexeme, { t: 'filter' }>;

/** What a unary parse yields: a pattern, or a filter (with its negation so far). */
type Unary = { expr: QueryExpr } | { filter: FilterLexeme; negated: boolean };

/** One side of an OR (or a whole AND): its pattern (null if it held filters only) and its first filter. */
interface Side {
  expr: QueryExpr | null;
  firstFilter?: FilterLexeme;
  /** Nothing was read (the side is missing). */
  empty: boolean;
}

function quoteHint(word: string): string {
  return `quote it to search for the word: "${word}"`;
}

export function makeAnd(items: QueryExpr[]): QueryExpr {
  const flat = items.flatMap((e) => (e.kind === 'and' ? e.items : [e]));
  return flat.length === 1 ? flat[0] : { kind: 'and', items: flat };
}

export function makeOr(items: QueryExpr[]): QueryExpr {
  const flat = items.flatMap((e) => (e.kind === 'or' ? e.items : [e]));
  return flat.length === 1 ? flat[0] : { kind: 'or', items: flat };
}

class Parser {
  private pos = 0;
  readonly filters: QueryFilter[] = [];

  constructor(
    private readonly text: string,
    private readonly lexemes: readonly Lexeme[],
    private readonly mode: QueryMode,
  ) {}

  parse(): ParsedQuery {
    const side = this.parseOr(0);
    const rest = this.peek();
    if (rest) throw queryError('unbalanced `)`: no `(` opens it', rest.start + 1, quoteHint(')'));
    return { filters: this.filters, expr: side.expr };
  }

  private peek(): Lexeme | undefined {
    return this.lexemes[this.pos];
  }

  private isOp(lexeme: Lexeme | undefined, op: string): boolean {
    return lexeme?.t === 'op' && lexeme.op === op;
  }

  /** True where an operand cannot start: the end, `)`, AND, OR. */
  private atOperandEnd(): boolean {
    const next = this.peek();
    return !next || next.t === 'close' || this.isOp(next, 'AND') || this.isOp(next, 'OR');
  }

  private parseOr(depth: number): Side {
    const sides = [this.parseAnd(depth)];
    while (this.isOp(this.peek(), 'OR')) {
      const op = this.lexemes[this.pos++];
      if (sides[sides.length - 1].empty)
        throw queryError('`OR` needs a pattern before it', op.start + 1, quoteHint('OR'));
      const next = this.peek();
      if (!next || next.t === 'close' || this.isOp(next, 'OR'))
        throw queryError('`OR` needs a pattern after it', op.start + 1, quoteHint('OR'));
      sides.push(this.parseAnd(depth));
    }
    if (sides.length === 1) return sides[0];
    for (const side of sides) {
      if (side.expr === null && side.firstFilter) {
        const key = side.firstFilter.key;
        throw queryError(
          `filters apply to the whole query: \`${key}:\` can't be a side of \`OR\``,
          side.firstFilter.keyStart + 1,
          'write the filter beside the patterns, e.g. `a OR b lang:go`',
        );
      }
    }
    return { expr: makeOr(sides.map((s) => s.expr).filter((e): e is QueryExpr => e !== null)), empty: false };
  }

  private parseAnd(depth: number): Side {
    const items: QueryExpr[] = [];
    let firstFilter: FilterLexeme | undefined;
    let consumed = false;
    for (;;) {
      const next = this.peek();
      if (!next || next.t === 'close' || this.isOp(next, 'OR')) break;
      if (this.isOp(next, 'AND')) {
        this.pos++;
        if (!consumed) throw queryError('`AND` needs a pattern before it', next.start + 1, quoteHint('AND'));
        if (this.atOperandEnd())
          throw queryError('`AND` needs a pattern after it', next.start + 1, quoteHint('AND'));
        continue;
      }
      const unary = this.parseUnary(depth);
      consumed = true;
      if ('expr' in unary) items.push(unary.expr);
      else {
        firstFilter ??= unary.filter;
        const { field, value } = unary.filter;
        this.filters.push({ field, value, negated: unary.negated });
      }
    }
    return { expr: items.length === 0 ? null : makeAnd(items), firstFilter, empty: !consumed };
  }

  private parseUnary(depth: number): Unary {
    const next = this.peek();
    if (next && this.isOp(next, 'NOT')) {
      this.pos++;
      if (this.atOperandEnd())
        throw queryError('`NOT` needs a pattern after it', next.start + 1, quoteHint('NOT'));
      const inner = this.parseUnary(depth);
      return 'expr' in inner
        ? { expr: { kind: 'not', item: inner.expr } }
        : { ...inner, negated: !inner.negated };
    }
    return this.parsePrimary(depth);
  }

  private parsePrimary(depth: number): Unary {
    const lexeme = this.lexemes[this.pos++];
    switch (lexeme.t) {
      case 'open':
        return { expr: this.parseGroup(lexeme, depth) };
      case 'quoted': {
        const term: QueryExpr = { kind: 'term', value: lexeme.value, quoted: true };
        return { expr: lexeme.negated ? { kind: 'not', item: term } : term };
      }
      case 'regex': {
        const regex: QueryExpr = { kind: 'regex', pattern: lexeme.pattern };
        return { expr: lexeme.negated ? { kind: 'not', item: regex } : regex };
      }
      case 'filter':
        if (depth > 0)
          throw queryError(
            `filters apply to the whole query: move \`${lexeme.key}:\` out of the parentheses`,
            lexeme.keyStart + 1,
          );
        return { filter: lexeme, negated: lexeme.negated };
      case 'word':
        return { expr: this.parseRun(lexeme) };
      default:
        // close, AND, OR: the callers stop before them; errors were thrown before parsing
        throw queryError('unexpected token', lexeme.start + 1);
    }
  }

  private parseGroup(open: Lexeme, depth: number): QueryExpr {
    if (this.peek()?.t === 'close')
      throw queryError('empty parentheses `()`', open.start + 1, quoteHint('()'));
    const inner = this.parseOr(depth + 1);
    if (this.peek()?.t !== 'close')
      throw queryError('unbalanced `(`: no `)` closes it', open.start + 1, 'add `)`, or ' + quoteHint('('));
    this.pos++;
    if (inner.expr === null) throw queryError('empty parentheses `()`', open.start + 1, quoteHint('()'));
    return inner.expr;
  }

  /** Consecutive bare words from `first`: one literal term, or in regex mode one regex. */
  private parseRun(first: Lexeme): QueryExpr {
    let end = first.end;
    while (this.peek()?.t === 'word') end = this.lexemes[this.pos++].end;
    const text = this.text.slice(first.start, end);
    if (this.mode === 'literal') return { kind: 'term', value: text, quoted: false };
    const pattern = normalizeRegex(text);
    const problem = regexError(pattern);
    if (problem !== null) throw queryError(`invalid regex: ${problem}`, first.start + 1);
    return { kind: 'regex', pattern };
  }
}

function throwLexError(lexeme: ErrorLexeme): never {
  throw queryError(lexeme.message, lexeme.column, lexeme.suggestion);
}

/** Parses lexemes already read from `text` (tokenizeQuery shares them); throws the first error. */
export function parseLexemes(text: string, lexemes: readonly Lexeme[], mode: QueryMode): ParsedQuery {
  for (const lexeme of lexemes) if (lexeme.t === 'error') throwLexError(lexeme);
  return new Parser(text, lexemes, mode).parse();
}

/**
 * Parses a query (see the rules above). Throws QuarryError('InvalidQuery', message,
 * { column, suggestion?, field: 'query' }) with a 1-based UTF-16 column.
 */
export function parseQuery(text: string, options: ParseQueryOptions = {}): ParsedQuery {
  return parseLexemes(text, lexQuery(text), options.mode ?? 'literal');
}
