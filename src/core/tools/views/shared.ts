/**
 * What the view tools share: their list arguments (a query, a limit, the path filters), a
 * chunk's location under its root's prefix, each root's code index with a line reader, and the
 * snippet lines a hit shows (the chunk's first line and its first lines with a term, marked).
 */
import { QuarryError } from '../../errors';
import type { HitRange } from '../../grep/types';
import type { ChunkIndex } from '../../rank/bm25';
import { markTerms } from '../../rank/mark-terms';
import { compilePathFilter } from '../../walk/glob';
import type { ToolRoot } from '../../workspace/root';
import { routeByName } from '../../workspace/workspace';
import type { JsonSchema, ToolContext } from '../types';
import { optionalInt, requiredString, type Args } from '../validate';
import type { ChunkRef, SnippetLine } from './types';

/** Results a Ranked or Semantic list returns at most. */
export const VIEW_LIMIT_MAX = 200;
/** Snippet lines per hit after its first (the chunk's first matching lines). */
const SNIPPET_MATCH_LINES = 3;
const SNIPPET_LINE_CHARS = 300;

/** The schema of the list arguments Ranked and Semantic mode share (`extra` goes after `query`). */
export function listSchema(extra: JsonSchema['properties'] = {}): JsonSchema {
  const globs = (what: string) => ({ type: 'array', items: { type: 'string' }, description: what });
  return {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Words, identifiers or a question (empty: no hits)' },
      ...extra,
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: VIEW_LIMIT_MAX,
        default: 50,
        description: 'Maximum hits',
      },
      include: globs("Globs a root-relative path must match (a leading '!' excludes)"),
      exclude: globs('Globs of root-relative paths left out'),
      extensions: globs("File extensions to keep ('ts' or '.ts')"),
    },
    required: ['query'],
    additionalProperties: false,
  };
}

function optionalStrings(args: Args, field: string): string[] | undefined {
  const v = args[field];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new QuarryError('InvalidArgument', `${field} must be an array of strings`, { field, value: v });
  return v as string[];
}

/** The arguments Ranked and Semantic mode share: the query, a limit, the path filters (on root-relative paths). */
export function listArgs(args: Args) {
  return {
    query: requiredString(args, 'query', { allowEmpty: true }),
    limit: optionalInt(args, 'limit', 50, 1, VIEW_LIMIT_MAX),
    pathTest: compilePathFilter({
      include: optionalStrings(args, 'include'),
      exclude: optionalStrings(args, 'exclude'),
      extensions: optionalStrings(args, 'extensions'),
      fields: { include: 'include', exclude: 'exclude', extensions: 'extensions' },
    }),
  };
}

/** Only a chunk's location crosses (index chunks carry more), its path as a workspace path. */
export function chunkRef(c: ChunkRef, prefix: string): ChunkRef {
  return {
    path: prefix + c.path,
    startLine: c.startLine,
    endLine: c.endLine,
    symbolName: c.symbolName,
    chunkType: c.chunkType,
  };
}

/** Reads a root's files once per call: a file's lines (root-relative path), null when unreadable. */
export type LineReader = (root: ToolRoot, path: string) => Promise<string[] | null>;

export function lineReader(): LineReader {
  const files = new Map<ToolRoot, Map<string, Promise<string[] | null>>>();
  return (root, path) => {
    let byPath = files.get(root);
    if (!byPath) files.set(root, (byPath = new Map()));
    let p = byPath.get(path);
    if (!p) byPath.set(path, (p = root.root.lines(path).catch(() => null)));
    return p;
  };
}

/** The workspace's roots, or the EngineError a host without them gets. */
export function toolRoots(ctx: ToolContext, tool: string): readonly ToolRoot[] {
  if (!ctx.roots)
    throw new QuarryError(
      'EngineError',
      `${tool} needs the workspace's code index, and this host provides none`,
      {},
    );
  if (!ctx.roots.length) throw new QuarryError('EngineError', 'No index is available for this workspace', {});
  return ctx.roots;
}

/** The root a workspace path belongs to (RepoWorkspace.route's rule), and the path inside it. */
export function routeAmong(roots: readonly ToolRoot[], path: string): { root: ToolRoot; rel: string } {
  const { index, rel } = routeByName(
    roots.map((r) => r.name),
    path,
    'path',
  );
  return { root: roots[index], rel };
}

const isIndexNotReady = (err: unknown) => err instanceof QuarryError && err.reason === 'indexNotReady';

/**
 * Every root whose code index answers, with it. A root whose index a background build has not
 * finished (NotFound 'indexNotReady': the app while it builds) is left out while another
 * answers; with none, the first root says why. Hosts that index on demand (the CLI) build each.
 */
export async function answeringIndexes(
  ctx: ToolContext,
  tool: string,
): Promise<Array<{ root: ToolRoot; prefix: string; index: ChunkIndex }>> {
  const roots = toolRoots(ctx, tool);
  const settled = await Promise.allSettled(roots.map((r) => r.root.codeIndex(ctx.signal)));
  const failed = settled.find(
    (s): s is PromiseRejectedResult => s.status === 'rejected' && !isIndexNotReady(s.reason),
  );
  if (failed) throw failed.reason;
  const out = settled.flatMap((s, i) =>
    s.status === 'fulfilled' ? [{ root: roots[i], prefix: roots[i].prefix, index: s.value }] : [],
  );
  if (!out.length) throw (settled[0] as PromiseRejectedResult).reason;
  return out;
}

/** A hit's snippet: the chunk's first line and its first lines with a term, each with the terms marked. */
export function snippetLines(
  lines: string[] | null,
  c: ChunkRef,
  terms: ReadonlySet<string>,
): Array<SnippetLine | null> {
  const out: Array<SnippetLine | null> = [];
  if (!lines) return out;
  const cut = (n: number): SnippetLine => {
    const text = (lines[n - 1] ?? '').slice(0, SNIPPET_LINE_CHARS);
    return { line: n, text, ranges: markTerms(text, terms) as HitRange[] };
  };
  out.push(cut(c.startLine));
  let shown = 0;
  let prev = c.startLine;
  for (let n = c.startLine + 1; n <= Math.min(c.endLine, lines.length) && shown < SNIPPET_MATCH_LINES; n++) {
    const line = cut(n);
    if (!line.ranges.length) continue;
    if (n > prev + 1) out.push(null);
    out.push(line);
    prev = n;
    shown++;
  }
  return out;
}
