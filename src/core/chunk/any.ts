/**
 * Every text file's chunks, whatever it holds (issue 15): the one dispatch used on the
 * calling thread and in each thread of a parsing pool.
 *   - JSON/YAML/TOML: one 'key' chunk per top-level key (config.ts, a scanner: no grammar)
 *   - Vue/Svelte: a 'section' per top-level block, plus the script blocks' symbols, parsed
 *     as TS/JS with their lines shifted to the file's (sfc.ts)
 *   - a language with a grammar (or Markdown): its symbol chunks (index.ts); HTML also gets
 *     its script blocks' symbols
 *   - anything else, and a parsed file with no symbol chunk: the fallback's blocks (fallback.ts)
 * Minified and generated files get no chunks at all: the index build asks textOnlyReason
 * first and leaves them to the text index.
 */
import type { ChunkerOptions } from './index';
import { Chunker, GRAMMAR_LANGUAGES, languageForPath, sortChunks } from './index';
import { chunkConfig, configKindForPath } from './config';
import { chunkBlocks } from './fallback';
import { generatedDetail } from './generated';
import { minifiedDetail } from './minified';
import type { FileChunker } from './pool';
import { embeddedScripts, sfcKindForPath, sfcSections } from './sfc';
import type { Chunk, GrammarLanguageId, GrammarLoader } from './types';

/** How the ranked index covers a file: parsed into symbols, or split into blocks (no parser for it). */
export type ChunkMethod = 'symbols' | 'blocks';

export function chunkMethodFor(path: string): ChunkMethod {
  return configKindForPath(path) || sfcKindForPath(path) || languageForPath(path) ? 'symbols' : 'blocks';
}

/** Why a file stays in the text index only (no chunks), or null. */
export function textOnlyReason(
  path: string,
  text: string,
): { reason: 'minified' | 'generated'; detail: string } | null {
  const generated = generatedDetail(path, text);
  if (generated !== null) return { reason: 'generated', detail: generated };
  const minified = minifiedDetail(path, text);
  return minified === null ? null : { reason: 'minified', detail: minified };
}

/** A file name whose final extension picks the grammar for an embedded script. */
const SCRIPT_EXTENSION = { typescript: 'ts', tsx: 'tsx', javascript: 'js' } as const;

/** One file's chunks on this thread. */
export class AnyFileChunker implements FileChunker {
  readonly parallelism = 1;

  constructor(private readonly symbols: Chunker) {}

  async chunk(path: string, text: string): Promise<Chunk[]> {
    const config = configKindForPath(path);
    if (config) return chunkConfig(config, path, text);
    if (sfcKindForPath(path))
      return sortChunks([...sfcSections(path, text), ...(await this.scripts(path, text))]);
    const lang = languageForPath(path);
    if (lang === null) return chunkBlocks(path, text);
    const chunks = await this.symbols.chunk(path, text);
    if (lang === 'html') return sortChunks([...chunks, ...(await this.scripts(path, text))]);
    // a parsed file with no symbol worth a chunk (`var round = createRound('round')`, a script of
    // top-level statements) is still found: as the fallback's blocks
    return chunks.length ? chunks : chunkBlocks(path, text);
  }

  /** Starts loading these grammars (all at once); a failure is reported by the files that need it. */
  prepare(keys: readonly string[]): void {
    for (const key of keys)
      if ((GRAMMAR_LANGUAGES as readonly string[]).includes(key))
        this.symbols.load(key as GrammarLanguageId).catch(() => undefined);
  }

  /** The symbols of a component's or page's script blocks, on the file's own lines. */
  private async scripts(path: string, text: string): Promise<Chunk[]> {
    const out: Chunk[] = [];
    for (const block of embeddedScripts(path, text)) {
      const shift = block.startLine - 1;
      let chunks: Chunk[];
      try {
        chunks = await this.symbols.chunk(`${path}.${SCRIPT_EXTENSION[block.language]}`, block.text);
      } catch {
        continue; // a script block that does not parse leaves the file its other chunks
      }
      for (const c of chunks)
        out.push({ ...c, path, startLine: c.startLine + shift, endLine: c.endLine + shift });
    }
    return out;
  }

  dispose(): void {
    this.symbols.dispose();
  }
}

/** A FileChunker on this thread, its grammars loaded as files of each language come. */
export async function inThreadChunker(
  loader: GrammarLoader,
  options: ChunkerOptions = {},
): Promise<AnyFileChunker> {
  return new AnyFileChunker(await Chunker.create(loader, options));
}

/** A chunker of one file at a time on this thread (tests hand the build such fakes). */
export interface SyncChunker {
  chunkFile(path: string, text: string): Chunk[];
}

/**
 * Whatever the index build was handed, as a FileChunker: a bare Chunker gets the any-file
 * dispatch; a SyncChunker is asked for every ranked file as it is.
 */
export function asFileChunker(c: FileChunker | Chunker | SyncChunker): FileChunker {
  if (c instanceof Chunker) return new AnyFileChunker(c);
  if ('chunk' in c) return c;
  return { parallelism: 1, chunk: async (path, text) => c.chunkFile(path, text) };
}
