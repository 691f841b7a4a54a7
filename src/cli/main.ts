/**
 * The `quarry` command line over local directories (core + Node adapters only).
 *   quarry tools
 *   quarry call <tool> '<json-args>' --root DIR [--root DIR2] [--json]
 * Exit codes: 0 ok, 2 invalid arguments (bad tool input or command line), 1 anything else.
 */
import { isUserError, QuarryError, toQuarryError } from '../core/errors';
import { Workspace } from '../core/source/workspace';
import { callTool, describeTools } from '../core/tools';
import { NodeFsSource } from '../adapters/node-fs';
import * as fs from 'node:fs';
import * as path from 'node:path';

const USAGE = `Usage:
  quarry tools                                   list every tool as JSON {name, description, inputSchema}
  quarry call <tool> '<json-args>' --root DIR    run one tool over DIR (repeat --root for several roots;
                                                 QUARRY_ROOT is used when no --root is given)
Options:
  --root DIR   a directory to search (repeatable)
  --json       print text results (search_files) as a JSON string instead of plain text
  -h, --help   this help`;

export interface CliIO {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
}

function usageError(message: string): QuarryError {
  return new QuarryError('InvalidArgument', message, { field: 'argv' });
}

export function parseArgs(argv: string[]) {
  const positional: string[] = [];
  const roots: string[] = [];
  let json = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root') {
      const v = argv[++i];
      if (v === undefined) throw usageError('--root needs a directory');
      roots.push(v);
    } else if (a.startsWith('--root=')) roots.push(a.slice(7));
    else if (a === '--json') json = true;
    else if (a === '-h' || a === '--help') help = true;
    else if (a.startsWith('--')) throw usageError(`Unknown option ${a}`);
    else positional.push(a);
  }
  return { positional, roots, json, help };
}

function openRoots(roots: string[]): Workspace {
  const sources = roots.map((r) => {
    const abs = path.resolve(r);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      throw new QuarryError('InvalidArgument', `--root ${r}: no such directory`, { field: 'root', value: r });
    }
    if (!st.isDirectory()) throw new QuarryError('InvalidArgument', `--root ${r}: not a directory`, { field: 'root', value: r });
    return new NodeFsSource(abs);
  });
  return new Workspace(sources);
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const fail = (err: unknown): number => {
    const qe = toQuarryError(err);
    io.stdout(JSON.stringify({ error: { code: qe.code, message: qe.message, ...(Object.keys(qe.data).length ? { data: qe.data } : {}) } }) + '\n');
    return isUserError(qe) || qe.code === 'NotFound' ? 2 : 1;
  };
  try {
    const { positional, roots, json, help } = parseArgs(argv);
    const [command, ...rest] = positional;
    if (help || !command || command === 'help') {
      io.stdout(USAGE + '\n');
      return command || help ? 0 : 2;
    }
    if (command === 'tools') {
      io.stdout(JSON.stringify(describeTools(), null, 2) + '\n');
      return 0;
    }
    if (command === 'call') {
      const [tool, rawArgs = '{}'] = rest;
      if (!tool) throw usageError("quarry call needs a tool name: quarry call <tool> '<json-args>' --root DIR");
      let args: unknown;
      try {
        args = JSON.parse(rawArgs);
      } catch (e) {
        throw new QuarryError('InvalidArgument', `The tool arguments are not valid JSON: ${(e as Error).message}`, { field: '(arguments)' });
      }
      const rootList = roots.length ? roots : (io.env.QUARRY_ROOT ?? '').split(path.delimiter).filter(Boolean);
      if (!rootList.length) throw new QuarryError('InvalidArgument', 'No root: pass --root DIR or set QUARRY_ROOT', { field: 'root' });
      const workspace = openRoots(rootList);
      const result = await callTool(tool, args, { workspace });
      io.stdout((typeof result === 'string' && !json ? result : JSON.stringify(result, null, 2)) + '\n');
      return 0;
    }
    throw usageError(`Unknown command "${command}"\n${USAGE}`);
  } catch (err) {
    return fail(err);
  }
}
