/**
 * The search box's query language as plain data (issue 35). One parser (parse.ts) serves the
 * app's box, the address and the `search` tool; print.ts writes a query back so that
 * parse(print(q)) is q. Spellings of Sourcegraph and GitHub code search are accepted where
 * they overlap (`path:` = `file:`, `language:` = `lang:`, `repo:` = `root:`); the parsed form
 * holds the canonical field name only.
 */

/** A filter's canonical name. */
export type FilterField =
  'file' | 'lang' | 'case' | 'root' | 'type' | 'select' | 'count' | 'author' | 'before' | 'after';

/** What a query searches: file contents (the default), the symbol table, commit messages, or the lines commits added and removed. */
export type QueryType = 'file' | 'symbol' | 'commit' | 'diff';

/** A pattern or a boolean combination of patterns. */
export type QueryExpr =
  /** A literal (or, with the parser's `regex` mode, a bare word read as a regular expression: kind 'regex'). */
  | { kind: 'term'; value: string; quoted: boolean }
  /** `/pattern/` (or a bare word in regex mode). */
  | { kind: 'regex'; pattern: string }
  | { kind: 'and'; items: QueryExpr[] }
  | { kind: 'or'; items: QueryExpr[] }
  | { kind: 'not'; item: QueryExpr };

export interface QueryFilter {
  field: FilterField;
  value: string;
  /** `-file:x`, `NOT file:x`. */
  negated: boolean;
}

export interface ParsedQuery {
  /** In the order written. */
  filters: QueryFilter[];
  /** null when the query is filters only (e.g. `type:commit author:ann`). */
  expr: QueryExpr | null;
}

/** A token of the written query, for colouring and completion (UTF-16 offsets into the text). */
export interface QueryToken {
  start: number;
  end: number;
  kind: 'filter' | 'value' | 'term' | 'quoted' | 'regex' | 'operator' | 'paren' | 'error';
}

/** How bare words read: as literal text (the default, like today's box) or as one regular expression. */
export type QueryMode = 'literal' | 'regex';

export interface ParseQueryOptions {
  mode?: QueryMode;
}
