/**
 * Quarry's documented caps (README, Limits). Every one is enforced in the core engine, so the
 * app, the CLI and the MCP server refuse the same inputs with the same message.
 */

/** A query, pattern or search string longer than this is refused (InvalidArgument). */
export const MAX_QUERY_CHARS = 10_000;

/**
 * read_file without a line range refuses files larger than this (a range is streamed and
 * stops reading at its last line, so it works on a file of any size).
 */
export const READ_FILE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The code indexes (Quarry's ranked index and trigram prefilter, and seed 004's) hold at most
 * this much text, in walk order: the files after it are skipped with reason 'indexBudget' (said
 * in the index status) and text search scans them instead, so its answers stay complete. The
 * index takes a few times its text in memory: this keeps a 1 GB repository inside a tab.
 */
export const INDEX_MAX_TEXT_BYTES = 256 * 1024 * 1024;

/** A path argument longer than this is refused (Linux's PATH_MAX). */
export const MAX_PATH_CHARS = 4096;

/** The message every tool gives for a query over MAX_QUERY_CHARS. */
export function queryTooLongMessage(field: string, length: number): string {
  return `${field} is too long: ${length} characters (the limit is ${MAX_QUERY_CHARS})`;
}

/** One file's parse gives up after this long (the file keeps its text index, no symbol chunks). */
export const MAX_PARSE_MS = 5000;
