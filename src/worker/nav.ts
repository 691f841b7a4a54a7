/**
 * Code navigation over the open roots (core/nav does the ranking): definitions from each
 * root's symbol index, references from the text search with its trigram prefilter, a file's
 * outline, and "go to symbol in workspace". Paths in and out are workspace paths (with
 * several roots, prefixed by the root's name). Symbol tables are built once per index state.
 */
import { QuarryError } from '../core/errors';
import type { FileChunker } from '../core/chunk/pool';
import type { Chunk } from '../core/chunk/types';
import { searchWorkspace } from '../core/grep/search';
import { createYielder } from '../core/jobs/yielder';
import { byTier, nameLine, rankDefinitions, type DefinitionQuery } from '../core/nav/definitions';
import { goModuleOf, importsOfFile, type FileImports } from '../core/nav/file-imports';
import { isIdentifier, shortName } from '../core/nav/identifier';
import { outlineOf } from '../core/nav/outline';
import { definitionLines, definitionRanks, orderReferenceFiles, referenceFile } from '../core/nav/references';
import { SymbolTable } from '../core/nav/symbol-table';
import type {
  DefinitionsResult,
  OutlineNode,
  ReferenceFile,
  ReferencesResult,
  SymbolDefinition,
  WorkspaceSymbolHit,
} from '../core/nav/types';
import type { ChunkIndex } from '../core/rank/bm25';
import { type PreparedPath } from '../core/nav/fuzzy';
import { searchSymbols, type SymbolSource } from '../core/query/symbols';
import type { LeafPattern, QueryPlan } from '../core/query/plan';
import { planPathTest } from '../core/query/plan-engine';
import type { SymbolSearchResult } from '../core/query/results';
import type { CaseMode } from '../core/grep/regex';
import type { PathTest } from '../core/walk/glob';
import type { Roots } from './roots';
import type { RepoSession } from './session';
import { slot } from '../core/workspace/root-state';

/** type:symbol answers at most this many (count:all included). */
const SYMBOL_RESULTS_MAX = 1000;

/** Definitions listed at most (a name like `render` can have thousands). */
export const MAX_DEFINITIONS = 200;
/** Reference lines listed at most; the total keeps counting up to REFERENCES_COUNT_LIMIT. */
export const MAX_REFERENCES = 2000;
/** Past this many lines the count says "at least": a one-letter name would otherwise read every file to the end. */
const REFERENCES_COUNT_LIMIT = 10_000;
/** Files whose split lines are kept between lookups. */
const RECENT_FILES = 64;
/** Longer files are not kept (64 of them stay within a few tens of MB). */
const RECENT_MAX_LINES = 20_000;

interface Table {
  index: ChunkIndex;
  idSpan: number;
  chunkCount: number;
  table: SymbolTable;
  prepared?: { chunk: Chunk; name: PreparedPath }[];
}

function checkName(name: unknown): string {
  if (typeof name !== 'string' || !isIdentifier(name)) {
    throw new QuarryError(
      'InvalidArgument',
      `"${String(name).slice(0, 80)}" is not an identifier: click a name in the code`,
      { field: 'name' },
    );
  }
  return name;
}

/** A root's symbol table and its set of files (the root's state: released when it closes). */
const SYMBOLS = slot<Table>('symbol table');
const FILE_SET = slot<Set<string>>('file set');

export class NavService {
  /** Split lines of the files read last (least recently used dropped first); cleared when an index changes. */
  private readonly recentLines = new Map<string, string[] | null>();

  constructor(
    private readonly roots: Roots,
    private readonly getChunker: () => Promise<FileChunker>,
  ) {}

  /** The session's symbol table, or null while its index is not complete. */
  private tableOf(session: RepoSession): Table | null {
    if (!session.indexReady) return null;
    const { index } = session.readyIndex();
    const cached = session.state.get(SYMBOLS);
    if (
      cached &&
      cached.index === index &&
      cached.idSpan === index.idSpan &&
      cached.chunkCount === index.chunkCount
    )
      return cached;
    const table = new SymbolTable();
    for (let id = 0; id < index.idSpan; id++) {
      const c = index.chunkById(id);
      if (c) table.add(c);
    }
    const entry: Table = { index, idSpan: index.idSpan, chunkCount: index.chunkCount, table };
    this.recentLines.clear(); // files may have changed with the index
    session.state.set(SYMBOLS, entry);
    return entry;
  }

  private readyTables(): { session: RepoSession; prefix: string; table: Table }[] {
    const out = this.roots.roots.map((session) => ({
      session,
      prefix: this.roots.prefixOf(session),
      table: this.tableOf(session),
    }));
    if (out.every((t) => !t.table)) {
      throw new QuarryError(
        'NotFound',
        'The code index is not ready yet: definitions and symbols are found once it is built',
        { reason: 'indexNotReady' },
      );
    }
    return out.filter((t): t is { session: RepoSession; prefix: string; table: Table } => !!t.table);
  }

  private fileSet(session: RepoSession): Set<string> {
    let set = session.state.get(FILE_SET);
    if (!set) {
      set = new Set(session.quick.map((p) => p.path));
      session.state.set(FILE_SET, set);
    }
    return set;
  }

  /** The go.mod nearest above a Go file (a repository may hold several modules). */
  private async goModuleFor(
    session: RepoSession,
    files: Set<string>,
    rel: string,
  ): Promise<{ path: string; dir: string } | undefined> {
    if (!rel.endsWith('.go')) return undefined;
    for (let dir = rel; dir.includes('/');) {
      dir = dir.slice(0, dir.lastIndexOf('/'));
      const mod = `${dir}/go.mod`;
      if (files.has(mod)) {
        const lines = await session.fileLines(mod);
        return lines ? goModuleOf(mod, lines.join('\n')) : undefined;
      }
    }
    const lines = files.has('go.mod') ? await session.fileLines('go.mod') : null;
    return lines ? goModuleOf('go.mod', lines.join('\n')) : undefined;
  }

  /** What the file imports, as workspace paths (empty when it cannot be read). */
  private async importsOf(path: string): Promise<FileImports> {
    const empty: FileImports = { files: new Set(), dirs: new Set() };
    if (!path) return empty;
    const { root: session, rel, prefix } = this.roots.route(path);
    const lines = await session.fileLines(rel);
    if (!lines) return empty;
    const files = this.fileSet(session);
    const found = importsOfFile(rel, lines.join('\n'), files, await this.goModuleFor(session, files, rel));
    return {
      files: new Set([...found.files].map((f) => prefix + f)),
      dirs: new Set([...found.dirs].map((d) => (prefix + d).replace(/\/$/, ''))),
    };
  }

  private async linesMap(paths: Iterable<string>): Promise<Map<string, string[] | null>> {
    const out = new Map<string, string[] | null>();
    for (const p of paths) {
      if (out.has(p)) continue;
      const { root: session, rel } = this.roots.route(p);
      // recently read files stay split (a name's definitions often sit in the same big files)
      const key = `${session.key}\n${rel}`;
      let lines = this.recentLines.get(key);
      if (lines === undefined) {
        lines = await session.fileLines(rel);
        if (this.recentLines.size >= RECENT_FILES)
          this.recentLines.delete(this.recentLines.keys().next().value!);
      } else this.recentLines.delete(key);
      if (!lines || lines.length <= RECENT_MAX_LINES) this.recentLines.set(key, lines);
      out.set(p, lines);
    }
    return out;
  }

  async definitions(request: { path?: string; name: string }): Promise<DefinitionsResult> {
    const name = checkName(request?.name);
    const from = typeof request?.path === 'string' ? request.path : '';
    const tables = this.readyTables();
    const candidates: Chunk[] = [];
    for (const { prefix, table } of tables)
      for (const c of table.table.lookup(name)) candidates.push(prefix ? { ...c, path: prefix + c.path } : c);
    const query: DefinitionQuery = { name, from, imports: await this.importsOf(from) };
    const kept = byTier(query, candidates).slice(0, MAX_DEFINITIONS);
    const lines = await this.linesMap(kept.map((c) => c.path));
    return {
      name,
      definitions: rankDefinitions(query, kept, (p) => lines.get(p) ?? null),
      searchBased: true,
    };
  }

  /**
   * The name's references, each file sent to `onFile` as the search finds it (definition
   * lines marked); the summary counts them. Without `onFile` the files come back grouped.
   */
  async references(
    request: { path?: string; name: string },
    options: { signal?: AbortSignal; onFile?: (file: ReferenceFile) => void } = {},
  ): Promise<ReferencesResult> {
    const name = checkName(request?.name);
    const from = typeof request?.path === 'string' ? request.path : '';
    let definitions: SymbolDefinition[] = [];
    try {
      definitions = (await this.definitions({ path: from, name })).definitions;
    } catch (err) {
      // references need only the text search: without the index there is no definition to mark
      if (!(err instanceof QuarryError && err.data.reason === 'indexNotReady')) throw err;
    }
    const marks = definitionLines(definitions);
    const kept: ReferenceFile[] = [];
    let total = 0;
    let limitHit = false;
    for (const session of this.roots.roots) {
      const prefix = this.roots.prefixOf(session);
      const summary = await searchWorkspace(
        session.workspace,
        {
          pattern: name,
          mode: 'literal',
          caseMode: 'sensitive',
          wholeWord: true,
          maxResults: Math.max(0, MAX_REFERENCES - total),
          countLimit: REFERENCES_COUNT_LIMIT,
          maxLineChars: 400,
        },
        (r) => {
          const file = referenceFile(prefix ? { path: prefix + r.path, matches: r.matches } : r, marks);
          if (options.onFile) options.onFile(file);
          else kept.push(file);
        },
        { signal: options.signal, yielder: createYielder(), prefilter: session.prefilter() },
      );
      total += summary.total;
      limitHit ||= summary.limitHit || !summary.totalIsExact;
      if (summary.ending !== 'complete') break;
    }
    return {
      name,
      files: orderReferenceFiles(kept, from, definitionRanks(definitions)),
      total,
      limitHit,
      searchBased: true,
    };
  }

  /** A file's outline: from the index when it holds the file, else the file parsed now. */
  async outline(path: string): Promise<OutlineNode[]> {
    if (typeof path !== 'string' || !path)
      throw new QuarryError('InvalidArgument', 'path must be a non-empty string', { field: 'path' });
    const { root: session, rel } = this.roots.route(path);
    if (!(await session.source.stat(rel)))
      throw new QuarryError('NotFound', `No such file: ${path}`, { path });
    const lines = await session.fileLines(rel);
    if (!lines) throw new QuarryError('Unreadable', `"${path}" cannot be read as text`, { path });
    const table = this.tableOf(session);
    let chunks: Chunk[] | null = table && table.index.fileMeta(rel) ? table.index.chunksOf(rel) : null;
    if (!chunks) {
      try {
        chunks = await (await this.getChunker()).chunk(rel, lines.join('\n'));
      } catch {
        chunks = []; // no grammar for it: no outline, as for a plain text file
      }
    }
    return outlineOf(chunks, lines);
  }

  /** "Go to symbol in workspace": fuzzy over every definition's name, best first. */
  async workspaceSymbols(query: string, limit: number): Promise<WorkspaceSymbolHit[]> {
    const q = String(query ?? '').slice(0, 200);
    const max = Math.max(1, Math.min(Math.floor(limit) || 50, 500));
    const { top } = this.symbols({ pattern: q, mode: 'literal' }, null, null, 'insensitive', max);
    const lines = await this.linesMap(top.map((h) => h.path));
    return top.map(({ chunk, path, score, positions }) => ({
      name: chunk.symbolName,
      chunkType: chunk.chunkType,
      path,
      score,
      positions,
      line: nameLine(chunk, shortName(chunk.symbolName), lines.get(path) ?? null).line,
    }));
  }

  /** A `type:symbol` query's plan: the symbols of the roots it names, under its path filters. */
  async symbolSearch(plan: Extract<QueryPlan, { type: 'symbol' }>): Promise<SymbolSearchResult> {
    const limit = Math.min(plan.count, SYMBOL_RESULTS_MAX);
    const { top, total } = this.symbols(plan.name, plan.roots, planPathTest(plan), plan.caseMode, limit);
    const lines = await this.linesMap(top.map((h) => h.path));
    const results = top.map(({ chunk, path, positions }) => ({
      name: chunk.symbolName,
      kind: chunk.chunkType,
      path,
      line: nameLine(chunk, shortName(chunk.symbolName), lines.get(path) ?? null).line,
      endLine: chunk.endLine,
      positions,
    }));
    return { results, total };
  }

  private symbols(
    name: LeafPattern | null,
    rootNames: readonly string[] | null,
    pathTest: PathTest | null,
    caseMode: CaseMode,
    limit: number,
  ) {
    const names = this.roots.names();
    const tables = this.readyTables().flatMap(({ prefix, table }, i) =>
      table && (!rootNames || rootNames.includes(names[i])) ? [{ prefix, table }] : [],
    );
    const sources: SymbolSource[] = tables.map(({ prefix, table }) => ({
      prefix,
      table: table.table,
      prepared: table.prepared,
    }));
    const all = searchSymbols(sources, name, { pathTest, caseMode, limit: Infinity });
    tables.forEach(({ table }, i) => (table.prepared = sources[i].prepared)); // kept for the next query
    return { top: all.slice(0, limit), total: all.length };
  }
}
