/**
 * `quarry mcp` spoken to over stdio: through the MCP SDK's own Client (StdioClientTransport
 * spawning the real bin), and with raw lines where a client would never send them.
 */
import { MAX_QUERY_CHARS } from '../core/limits';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureDir } from '../../test/fixtures/repo';
import { describeTools } from '../core/tools';
import { PRODUCT, PRODUCT_VERSION } from '../core/version';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let root = '';
/** A generated repository large enough that building its index takes a while (seconds with --no-cache). */
let bigRoot = '';
const BIG_FILES = 3000;

function writeBigFixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-mcp-big-'));
  for (let i = 0; i < BIG_FILES; i++) {
    const sub = path.join(dir, 'src', `m${i % 40}`);
    fs.mkdirSync(sub, { recursive: true });
    let text = '';
    for (let f = 0; f < 8; f++) {
      text += `export function handler${i}_${f}(request: Request, total: number): number {\n  const value = total * ${i} + request.size;\n  if (value > ${f}) return compute${f}(value, "token${i}x${f}");\n  return value;\n}\n\n`;
    }
    fs.writeFileSync(path.join(sub, `file${i}.ts`), text);
  }
  return dir;
}

beforeAll(() => {
  root = writeFixtureDir();
  bigRoot = writeBigFixture();
  // the CLI is bundled before any test file runs (test/quarry-bundle.setup.ts), before any timing below
}, 60_000);

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function start(dir: string) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--root', dir, '--no-cache'],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d) => (stderr += d));
  const client = new Client({ name: 'quarry-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/** A server of its own, closed after the test: for tests that time it, cancel on it or need its index unbuilt. */
async function connect(dir: string) {
  const session = await start(dir);
  open.push(session.client);
  return session;
}

/**
 * One server over `root` for the tests that only ask it questions (--no-cache: nothing outlives
 * the file): each starts it if no test has yet, and one that lost it (closed) gets a new one.
 */
let sharedSession: Promise<Awaited<ReturnType<typeof start>>> | null = null;
function shared() {
  sharedSession ??= start(root).then((s) => {
    s.client.onclose = () => {
      sharedSession = null;
    };
    return s;
  });
  return sharedSession;
}
afterAll(async () => {
  const s = await sharedSession?.catch(() => null);
  await s?.client.close();
});

/** Writes raw lines to `quarry mcp`, closes stdin, and returns every answer line parsed, the exit code and stderr. */
async function rawSession(lines: unknown[], opts: { args?: string[]; env?: Record<string, string> } = {}) {
  const child = spawn(process.execPath, [BIN, 'mcp', '--root', root, ...(opts.args ?? ['--no-cache'])], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...opts.env },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  for (const m of lines) child.stdin.write((typeof m === 'string' ? m : JSON.stringify(m)) + '\n');
  child.stdin.end();
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
  const answers = out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  return { answers, code, stderr: err };
}

const initialize = (id: number, protocolVersion = LATEST_PROTOCOL_VERSION) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number | undefined, name: string, args: unknown) => ({
  jsonrpc: '2.0',
  ...(id === undefined ? {} : { id }),
  method: 'tools/call',
  params: { name, arguments: args },
});

/** CPU time (user + system, in clock ticks) a process has used so far; null where /proc is not there. */
function cpuTicks(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the whole line)
  } catch {
    return null;
  }
}

async function rejection(p: Promise<unknown>): Promise<McpError> {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

describe('quarry mcp (SDK client over stdio)', () => {
  it('initializes with serverInfo from core/version and lists exactly the tools layer', async () => {
    const { client } = await shared();
    expect(client.getServerVersion()).toEqual({ name: PRODUCT, version: PRODUCT_VERSION });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    expect(
      tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    ).toEqual(describeTools());
  });

  it('calls tools: JSON text plus structuredContent for objects', async () => {
    const { client } = await shared();
    const grep = await client.callTool({
      name: 'code_search',
      arguments: { query: 'calculateTotal', fileType: 'ts' },
    });
    expect(grep.isError).toBeFalsy();
    expect((grep.structuredContent as any).total).toBe(2);
    expect(JSON.parse((grep.content as any)[0].text)).toEqual(grep.structuredContent);
    const ranked = await client.callTool({
      name: 'codebase_search',
      arguments: { query: 'validate user credentials' },
    });
    expect((ranked.structuredContent as any).route).toBe('rust-tfidf');
    expect((ranked.structuredContent as any).results.map((h: any) => h.symbolName)).toContain('validateUser');
    // a string result (search_files prints text) is the text as it is, with no structuredContent
    const text = await client.callTool({
      name: 'search_files',
      arguments: { path: '.', regex: 'FIXME', file_pattern: '*.ts' },
    });
    expect((text.content as any)[0].text).toContain('# src/app.ts');
    expect(text.structuredContent).toBeUndefined();
  });

  it('answers explore (seed 003) with the report as structuredContent, and refuses a bad depth', async () => {
    const { client } = await shared();
    const res = await client.callTool({
      name: 'explore',
      arguments: { path: '.', depth: 'deep', focus: 'validate user' },
    });
    expect(res.isError).toBeFalsy();
    const report = res.structuredContent as any;
    expect(report).toMatchObject({ path: '.', depth: 'deep', focus: 'validate user', errors: [] });
    expect(report.tree).toContain('├── ');
    expect(report.focus_findings_detail.map((h: any) => h.symbol)).toContain('validateUser');
    expect(report.import_graph.files).toBeGreaterThan(0);
    const bad = await rejection(
      client.callTool({ name: 'explore', arguments: { path: '.', depth: 'very' } }),
    );
    expect(bad.message).toContain('depth must be one of "shallow", "standard", "deep"');
  }, 60_000);

  it('lists ranked_search and related_code with their schemas, and answers both at once', async () => {
    const { client } = await connect(root);
    const { tools } = await client.listTools();
    const schema = (name: string) => tools.find((t) => t.name === name)?.inputSchema;
    expect(schema('ranked_search')).toMatchObject({
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
        path: { type: 'string' },
        language: { type: 'string' },
      },
      required: ['query'],
      additionalProperties: false,
    });
    expect(schema('related_code')).toMatchObject({
      type: 'object',
      properties: {
        path: { type: 'string' },
        line: { type: 'integer', minimum: 1 },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      },
      required: ['path', 'line'],
      additionalProperties: false,
    });
    // both at once: one refresh of the shared index serves them
    const [ranked, related] = await Promise.all([
      client.callTool({
        name: 'ranked_search',
        arguments: { query: 'calculate total', language: 'typescript', limit: 3 },
      }),
      client.callTool({ name: 'related_code', arguments: { path: 'src/app.ts', line: 5 } }),
    ]);
    expect(ranked.isError).toBeFalsy();
    const results = (ranked.structuredContent as any).results;
    // the chunk takes the comment above the function
    expect(results[0]).toMatchObject({
      path: 'src/app.ts',
      startLine: 3,
      endLine: 8,
      symbol: 'calculateTotal',
      kind: 'function',
      why: expect.stringContaining('exact symbol match'),
    });
    expect(results[0].snippet.split('\n').slice(0, 2)).toEqual([
      '// TODO: support discounts',
      'export function calculateTotal(items: number[]): number {',
    ]);
    expect(JSON.parse((ranked.content as any)[0].text)).toEqual(ranked.structuredContent);
    expect(related.isError).toBeFalsy();
    expect((related.structuredContent as any).seed).toEqual({
      path: 'src/app.ts',
      startLine: 3,
      endLine: 8,
      symbol: 'calculateTotal',
      kind: 'function',
    });
    expect((related.structuredContent as any).results.map((r: any) => r.symbol)).toContain('calculateTax');
    const bad = await rejection(
      client.callTool({ name: 'ranked_search', arguments: { query: 'x', language: 'cobol' } }),
    );
    expect(bad.code).toBe(ErrorCode.InvalidParams);
    expect(bad.message).toMatch(/^MCP error -32602: language must be one of: typescript, /);
    const none = await client.callTool({ name: 'related_code', arguments: { path: 'src/app.ts', line: 2 } });
    expect(none).toEqual({
      content: [{ type: 'text', text: 'No related chunks found for that location' }],
      isError: true,
    });
  }, 60_000);

  it('answers semantic_code_search with the bundled model (its array as JSON text)', async () => {
    const { client } = await shared();
    const res = await client.callTool({
      name: 'semantic_code_search',
      arguments: { query: 'check that the user credentials are valid', limit: 3 },
    });
    expect(res.isError).toBeFalsy();
    const results = JSON.parse((res.content as any)[0].text);
    expect(results.length).toBeGreaterThan(0);
    expect(results.map((r: any) => r.symbol)).toContain('validateUser');
    expect(results[0]).toMatchObject({
      path: expect.any(String),
      startLine: expect.any(Number),
      why: expect.any(Object),
    });
    const bad = await rejection(
      client.callTool({ name: 'semantic_code_search', arguments: { query: 'x', type: 'keyword' } }),
    );
    expect(bad.message).toContain('type must be one of "semantic", "hybrid"');
  }, 60_000);

  it('maps an unknown tool and bad arguments to invalid params (-32602) with the engine message word for word', async () => {
    const { client } = await shared();
    const unknown = await rejection(client.callTool({ name: 'no_such_tool', arguments: {} }));
    expect(unknown.code).toBe(ErrorCode.InvalidParams);
    expect(unknown.message).toMatch(/^MCP error -32602: Unknown tool "no_such_tool"/);
    const missing = await rejection(client.callTool({ name: 'codebase_search', arguments: { limit: 5 } }));
    expect(missing.code).toBe(-32602);
    // the client prefixes "MCP error <code>: "; the server's message is exactly the engine's
    expect(missing.message).toBe('MCP error -32602: Missing required field: query');
    expect(missing.data).toMatchObject({ code: 'InvalidArgument', field: 'query' });
    const filter = await rejection(
      client.callTool({ name: 'codebase_search', arguments: { query: 'x', file_extensions: [] } }),
    );
    expect(filter.code).toBe(-32602);
    expect(filter.message).toBe(
      'MCP error -32602: INVALID_FILTER: file_extensions must be a non-empty array of strings',
    );
    expect(filter.data).toMatchObject({ code: 'InvalidFilter' });
  });

  it('returns engine errors as isError results carrying exactly the message', async () => {
    const { client } = await shared();
    const res = await client.callTool({ name: 'find_related', arguments: { path: 'src/app.ts', line: 1 } });
    expect(res).toEqual({
      content: [{ type: 'text', text: 'No related chunks found for that location' }],
      isError: true,
    });
    // and the server goes on answering
    await expect(client.ping()).resolves.toEqual({});
  });

  it('refuses a ~1 MB query at once with the length cap, then answers the next call', async () => {
    const { client } = await shared();
    const query = Array.from({ length: 120_000 }, (_, i) => `word${i % 5000}`).join(' ') + ' validateUser';
    expect(query.length).toBeGreaterThan(1_000_000);
    const err = await client
      .callTool({ name: 'codebase_search', arguments: { query, limit: 3, include_content: false } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(McpError);
    expect(err).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: `MCP error -32602: query is too long: ${query.length} characters (the limit is ${MAX_QUERY_CHARS})`,
    });
    const next = await client.callTool({
      name: 'codebase_search',
      arguments: { query: query.slice(-5000), limit: 3, include_content: false },
    });
    expect(next.isError).toBeFalsy();
    expect((next.structuredContent as any).results.map((h: any) => h.symbolName)).toContain('validateUser');
  });

  it('handles requests concurrently: ping and a short call answer while a long call runs', async () => {
    const { client } = await connect(bigRoot);
    const order: string[] = [];
    // the first codebase_search builds the index of BIG_FILES files (--no-cache): the long call
    const long = client
      .callTool({ name: 'codebase_search', arguments: { query: 'handler request', limit: 3 } })
      .then((r) => {
        order.push('long');
        return r;
      });
    await client.ping();
    order.push('ping');
    const short = await client.callTool({
      name: 'read_file',
      arguments: { filePath: 'src/m0/file0.ts', lineStart: 1, lineEnd: 1 },
    });
    order.push('short');
    expect((short.structuredContent as any).content).toBe(
      'export function handler0_0(request: Request, total: number): number {',
    );
    const listing = await client.callTool({ name: 'list_directory', arguments: { directoryPath: 'src' } });
    order.push('list');
    expect(listing.isError).toBeFalsy();
    const ranked = await long;
    expect(order).toEqual(['ping', 'short', 'list', 'long']);
    expect((ranked.structuredContent as any).results).toHaveLength(3);
    expect((ranked.structuredContent as any).index.filesScanned).toBe(BIG_FILES);
  }, 60_000);

  it('cancels a call: the request rejects, the work stops, and the server keeps answering', async () => {
    const { client, transport } = await connect(bigRoot);
    await client.ping();
    const controller = new AbortController();
    const started = Date.now();
    const long = client.callTool(
      { name: 'codebase_search', arguments: { query: 'handler request' } },
      undefined,
      { signal: controller.signal },
    );
    await sleep(300);
    controller.abort('cancelled by the test');
    const err = await rejection(long);
    expect(err.message).toContain('cancelled by the test');
    await expect(client.ping()).resolves.toEqual({});
    // The build stopped: the server uses (almost) no CPU once the cancel has landed, where the
    // build would keep a core busy for seconds (it takes well over a second on any machine).
    const pid = transport.pid!;
    await sleep(300);
    const before = cpuTicks(pid);
    if (before !== null) {
      await sleep(700);
      const used = cpuTicks(pid)! - before;
      expect(
        used,
        `server CPU ticks in 700 ms after the cancel (${Date.now() - started} ms since the call)`,
      ).toBeLessThan(15);
    }
    const short = await client.callTool({
      name: 'read_file',
      arguments: { filePath: 'src/m1/file1.ts', lineStart: 1, lineEnd: 1 },
    });
    expect((short.structuredContent as any).found).toBe(true);
  }, 60_000);
});

describe('quarry mcp (raw lines)', () => {
  it('negotiates the protocol version the SDK way: an unknown version gets one the server implements', async () => {
    const { answers, code } = await rawSession([initialize(1, '1999-01-01')]);
    expect(code).toBe(0);
    expect(answers).toHaveLength(1);
    expect(answers[0].result.protocolVersion).not.toBe('1999-01-01');
    expect(SUPPORTED_PROTOCOL_VERSIONS).toContain(answers[0].result.protocolVersion);
    expect(answers[0].result.serverInfo).toEqual({ name: PRODUCT, version: PRODUCT_VERSION });
    // a supported older version is kept
    const older = await rawSession([initialize(1, '2025-06-18')]);
    expect(older.answers[0].result.protocolVersion).toBe('2025-06-18');
  });

  it('survives a line that is not JSON: later requests still answer', async () => {
    const { answers, code, stderr } = await rawSession([
      initialize(1),
      initialized,
      'not json',
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      '{"jsonrpc":"2.0","id":',
      call(3, 'code_search', { query: 'calculateTotal', fileType: 'ts' }),
      { jsonrpc: '2.0', id: 4, method: 'tools/list' },
    ]);
    expect(code).toBe(0);
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4]);
    expect(answers.find((a) => a.id === 3).result.structuredContent.total).toBe(2);
    expect(answers.find((a) => a.id === 4).result.tools).toHaveLength(describeTools().length);
    expect(stderr).toContain('not valid JSON');
  });

  it('sends the exact engine message in the JSON-RPC error, and unknown methods get -32601', async () => {
    const { answers } = await rawSession([
      initialize(1),
      call(2, 'codebase_search', { limit: 5 }),
      call(3, 'codebase_search', { query: '   ' }),
      { jsonrpc: '2.0', id: 4, method: 'no/such/method' },
    ]);
    const byId = (id: number) => answers.find((a) => a.id === id);
    expect(byId(2).error).toMatchObject({ code: -32602, message: 'Missing required field: query' });
    expect(byId(3).error).toMatchObject({ code: -32602, message: 'query must not be empty' });
    expect(byId(4).error.code).toBe(-32601);
  });

  it('neither answers nor runs a tools/call sent as a notification', async () => {
    // Observed through the index cache: a codebase_search that runs saves the index there.
    const cacheDir = (tag: string) => fs.mkdtempSync(path.join(os.tmpdir(), `quarry-mcp-cache-${tag}-`));
    const quiet = cacheDir('notification');
    const { answers, code } = await rawSession(
      [
        initialize(1),
        initialized,
        call(undefined, 'codebase_search', { query: 'validate user' }),
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ],
      { args: [], env: { QUARRY_CACHE_DIR: quiet } },
    );
    expect(code).toBe(0);
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(fs.readdirSync(quiet)).toEqual([]);
    // the same call as a request runs (and fills the cache), so the check above can fail
    const ran = cacheDir('request');
    const control = await rawSession(
      [initialize(1), initialized, call(2, 'codebase_search', { query: 'validate user' })],
      {
        args: [],
        env: { QUARRY_CACHE_DIR: ran },
      },
    );
    expect(control.answers.map((a) => a.id)).toEqual([1, 2]);
    expect(fs.readdirSync(ran).length).toBeGreaterThan(0);
  });
});
