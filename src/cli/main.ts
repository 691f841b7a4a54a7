/**
 * The `quarry` command line over local directories (core + Node adapters only).
 *   quarry tools
 *   quarry call <tool> '<json-args>' --root DIR [--root DIR2] [--json]
 *   quarry serve [--port N] [--root DIR]   (serve.ts)
 * Exit codes: 0 ok, 2 invalid arguments (bad tool input or command line), 1 anything else.
 */
import { isUserError, QuarryError, toQuarryError } from '../core/errors';
import { Workspace } from '../core/source/workspace';
import { ALL_TOOLS, callTool, describeTools } from '../core/tools';
import type { ToolContext } from '../core/tools/types';
import { nodeSearchPool } from '../adapters/node/search-pool';
import { NodeFsSource } from '../adapters/node/fs';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import { defaultCacheDir, FileIndexStore } from '../adapters/node/index-store';
import { checkNodeOnnxDir } from '../adapters/node/onnx-files';
import { forgivingStore } from '../core/rank/persist';
import { sharedSourceParsers } from '../core/analyze/parsers';
import { CodebaseIndexService } from '../core/codebase-index/service';
import * as fs from 'node:fs';
import { chunksCommand } from './chunks';
import { cliSemantic, cliWorkspace } from './workspace';
import { cliHistory, cliHistorySearch } from './history';
import { serveMcp } from './mcp';
import { serveCommand } from './serve';
import { Turns, yieldingSource } from './turns';
import type { FileSource } from '../core/source/types';
import * as path from 'node:path';

const USAGE = `Usage:
  quarry tools                                   list every tool as JSON {name, description, inputSchema}: the
                                                 contracts, then the app's view tools (ranked_view,
                                                 semantic_search, related_view, flag_inventory)
  quarry call <tool> '<json-args>' --root DIR    run one tool over DIR (repeat --root for several roots;
                                                 QUARRY_ROOT is used when no --root is given)
  quarry chunks --root DIR [--seed004]           print every symbol chunk of the index, one JSON object per line
                                                 (--seed004: the chunks codebase_search and find_related rank)
  quarry chunks --stats --root DIR [--json]      what the index covers: files parsed, as blocks (no parser),
                                                 text only (minified, generated, parser failed), per file
  quarry mcp --root DIR                          serve the contracts over MCP (stdio, JSON-RPC 2.0; not the
                                                 view tools: ranked_search, related_code and others answer
                                                 the same questions for programs)
  quarry serve [--port N] [--root DIR]           serve the app (dist/, built first when missing) on
                                                 http://127.0.0.1:4173/ until Ctrl+C; with --root the app
                                                 opens DIR (read-only, on this machine only)
Options:
  --root DIR   a directory to search (repeatable)
  --json       print text results (search_files) as a JSON string instead of plain text
  --seed004    with chunks: seed 004's chunking instead of Quarry's symbol chunks
  --stats      with chunks: the coverage summary instead of the chunks
  --port N     with serve: the port (default 4173; 0 picks a free one)
  --no-cache   do not read or write the index cache (QUARRY_CACHE_DIR, else ~/.cache/quarry)
  --embed-model DIR  semantic search with the ONNX model in DIR (the transformers.js layout: config.json,
               tokenizer.json, onnx/model.onnx) instead of the built-in USE lite (also QUARRY_EMBED_MODEL)
  -h, --help   this help`;

export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
  stdin?: NodeJS.ReadableStream;
}

function usageError(message: string): QuarryError {
  return new QuarryError('InvalidArgument', message, { field: 'argv' });
}

export function parseArgs(argv: string[]) {
  const positional: string[] = [];
  const roots: string[] = [];
  let json = false;
  let help = false;
  let noCache = false;
  let seed004 = false;
  let stats = false;
  let port: string | undefined;
  let embedModel: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root' || a.startsWith('--root=')) {
      const v = a === '--root' ? argv[++i] : a.slice(7);
      if (v === undefined) throw usageError('--root needs a directory');
      // `--root "$REPO"` with REPO unset: never the working directory by accident
      if (v === '') throw new QuarryError('InvalidArgument', '--root is empty', { field: 'root', value: v });
      roots.push(v);
    } else if (a === '--embed-model' || a.startsWith('--embed-model=')) {
      embedModel = a === '--embed-model' ? argv[++i] : a.slice('--embed-model='.length);
      if (embedModel === undefined) throw usageError('--embed-model needs a directory');
    } else if (a === '--port') {
      port = argv[++i];
      if (port === undefined) throw usageError('--port needs a number');
    } else if (a.startsWith('--port=')) port = a.slice(7);
    else if (a === '--json') json = true;
    else if (a === '--no-cache') noCache = true;
    else if (a === '--seed004') seed004 = true;
    else if (a === '--stats') stats = true;
    else if (a === '-h' || a === '--help') help = true;
    else if (a.startsWith('--')) throw usageError(`Unknown option ${a}`);
    else positional.push(a);
  }
  return { positional, roots, json, help, noCache, seed004, stats, port, embedModel };
}

/** --embed-model, else QUARRY_EMBED_MODEL: the ONNX model's folder, checked (exit 2 when it is no model); none: USE lite. */
function resolveEmbedModel(
  flag: string | undefined,
  env: Record<string, string | undefined>,
): string | undefined {
  if (flag !== undefined) return checkNodeOnnxDir(flag);
  const fromEnv = env.QUARRY_EMBED_MODEL;
  return fromEnv ? checkNodeOnnxDir(fromEnv, 'QUARRY_EMBED_MODEL') : undefined;
}

/** --root, then QUARRY_ROOT (then seed 004's LOCUS_ROOT / CODERAG_ROOT, then a `root` argument); never the working directory. */
function resolveRoots(roots: string[], env: Record<string, string | undefined>, args: unknown): string[] {
  if (roots.length) return roots;
  for (const name of ['QUARRY_ROOT', 'LOCUS_ROOT', 'CODERAG_ROOT']) {
    const list = (env[name] ?? '').split(path.delimiter).filter(Boolean);
    if (list.length) return list;
  }
  const argRoot = args && typeof args === 'object' ? (args as Record<string, unknown>).root : undefined;
  if (typeof argRoot === 'string' && argRoot.trim()) return [argRoot];
  throw new QuarryError('InvalidArgument', 'No root: pass --root DIR or set QUARRY_ROOT', { field: 'root' });
}

/**
 * What every tool call needs over local roots: the workspace (one LocalRoot per root, with its
 * cached indexes, shared by every tool of the process), the parsers, the history, the threads.
 */
function toolContext(
  rootList: string[],
  io: CliIO,
  options: { noCache: boolean; embedModel?: string },
  turns?: Turns,
): ToolContext {
  const { noCache, embedModel } = options;
  const files = openRoots(rootList, turns);
  const dir = noCache ? null : defaultCacheDir(io.env);
  if (!noCache && !dir)
    io.stderr(
      'quarry: no cache directory (no HOME, QUARRY_CACHE_DIR or XDG_CACHE_HOME); the index is kept in memory for this run\n',
    );
  let warned = false;
  const warnOnce = (message: string) => {
    if (warned) return;
    warned = true;
    io.stderr(
      `quarry: cannot write the index cache in ${dir} (${message}); the index is kept in memory for this run (set QUARRY_CACHE_DIR to a writable directory, or pass --no-cache)\n`,
    );
  };
  const store = dir ? forgivingStore(new FileIndexStore(dir), warnOnce) : undefined;
  const workspace = cliWorkspace(files, store, embedModel);
  return {
    workspace: workspace.files(),
    roots: workspace.toolRoots(),
    parsers: () => sharedSourceParsers(nodeGrammarLoader),
    semantic: cliSemantic(workspace, io.stderr, embedModel),
    history: cliHistory(rootList),
    historySearch: cliHistorySearch(rootList),
    searchPool: cliSearchPool(),
  };
}

let searchPool: ReturnType<typeof nodeSearchPool> | null = null;
/** One pool of search threads per process (started by the first search that needs more than one chunk). */
function cliSearchPool() {
  return (searchPool ??= nodeSearchPool());
}

/** A Workspace over the --root directories; with `turns` (a server), each source lets the event loop run between reads. */
function openRoots(roots: string[], turns?: Turns): Workspace {
  const sources = roots.map((r): FileSource => {
    const abs = path.resolve(r);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      throw new QuarryError('InvalidArgument', `--root ${r}: no such directory`, { field: 'root', value: r });
    }
    if (!st.isDirectory())
      throw new QuarryError('InvalidArgument', `--root ${r}: not a directory`, { field: 'root', value: r });
    const source = new NodeFsSource(abs);
    return turns ? yieldingSource(source, turns) : source;
  });
  return new Workspace(sources);
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const fail = (err: unknown): number => {
    const qe = toQuarryError(err);
    io.stdout(
      JSON.stringify({
        error: {
          code: qe.code,
          message: qe.message,
          ...(Object.keys(qe.data).length ? { data: qe.data } : {}),
        },
      }) + '\n',
    );
    return isUserError(qe) || qe.code === 'NotFound' ? 2 : 1;
  };
  try {
    const { positional, roots, json, help, noCache, seed004, stats, port, embedModel } = parseArgs(argv);
    const [command, ...rest] = positional;
    if (help || !command || command === 'help') {
      io.stdout(USAGE + '\n');
      return command || help ? 0 : 2;
    }
    if (command === 'tools') {
      io.stdout(JSON.stringify(describeTools(ALL_TOOLS), null, 2) + '\n');
      return 0;
    }
    if (command === 'call') {
      const [tool, rawArgs = '{}'] = rest;
      if (!tool)
        throw usageError("quarry call needs a tool name: quarry call <tool> '<json-args>' --root DIR");
      let args: unknown;
      try {
        args = JSON.parse(rawArgs);
      } catch (e) {
        throw new QuarryError(
          'InvalidArgument',
          `The tool arguments are not valid JSON: ${(e as Error).message}`,
          { field: '(arguments)' },
        );
      }
      const ctx = toolContext(resolveRoots(roots, io.env, args), io, {
        noCache,
        embedModel: resolveEmbedModel(embedModel, io.env),
      });
      const result = await callTool(tool, args, ctx, ALL_TOOLS);
      io.stdout((typeof result === 'string' && !json ? result : JSON.stringify(result, null, 2)) + '\n');
      return 0;
    }
    if (command === 'mcp') {
      await serveMcp(
        toolContext(
          resolveRoots(roots, io.env, undefined),
          io,
          { noCache, embedModel: resolveEmbedModel(embedModel, io.env) },
          new Turns(),
        ),
        io.stdin ?? process.stdin,
        io.stdout,
        io.stderr,
      );
      return 0;
    }
    if (command === 'serve') {
      await serveCommand({ port, roots }, io);
      return 0;
    }
    if (command === 'chunks' && seed004) {
      const seed = new CodebaseIndexService(openRoots(resolveRoots(roots, io.env, undefined)));
      for (const file of (await seed.walk()).keys()) {
        for (const c of (await seed.chunksOf(file)) ?? []) {
          io.stdout(
            JSON.stringify({
              path: c.path,
              startLine: c.startLine,
              endLine: c.endLine,
              symbolName: c.symbolName,
              chunkType: c.chunkType,
            }) + '\n',
          );
        }
      }
      return 0;
    }
    if (command === 'chunks') {
      await chunksCommand(openRoots(resolveRoots(roots, io.env, undefined)), io.stdout, { stats, json });
      return 0;
    }
    throw usageError(`Unknown command "${command}"\n${USAGE}`);
  } catch (err) {
    return fail(err);
  }
}
