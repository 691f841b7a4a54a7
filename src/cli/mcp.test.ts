/** `quarry mcp` spoken to over stdio, as an MCP client would. */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureDir } from '../../test/fixtures/repo';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');
let root = '';
beforeAll(() => {
  root = writeFixtureDir();
});

async function session(messages: unknown[]): Promise<any[]> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--root', root, '--no-cache'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  for (const m of messages) child.stdin.write(typeof m === 'string' ? m + '\n' : JSON.stringify(m) + '\n');
  child.stdin.end();
  const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? -1)));
  expect(code).toBe(0);
  return out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('quarry mcp', () => {
  it('initializes, lists the tools and calls one', async () => {
    const res = await session([
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'code_search', arguments: { query: 'calculateTotal', fileType: 'ts' } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'codebase_search', arguments: { query: 'validate user credentials' } } },
    ]);
    expect(res.map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(res[0].result.serverInfo.name).toBe('quarry');
    expect(res[0].result.capabilities.tools).toBeDefined();
    expect(res[1].result.tools.map((t: any) => t.name)).toContain('find_related');
    expect(res[2].result.structuredContent.total).toBe(2);
    expect(JSON.parse(res[2].result.content[0].text).matches[0].path).toBe('src/app.ts');
    expect(res[3].result.structuredContent.route).toBe('rust-tfidf');
    expect(res[3].result.structuredContent.results.map((h: any) => h.symbolName)).toContain('validateUser');
  });
  it('answers bad tool input with invalid params and engine errors with their message', async () => {
    const res = await session([
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'codebase_search', arguments: { limit: 5 } } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'find_related', arguments: { path: 'src/app.ts', line: 1 } } },
      { jsonrpc: '2.0', id: 3, method: 'no/such/method' },
      'not json',
    ]);
    expect(res[0].error).toMatchObject({ code: -32602, message: 'Missing required field: query' });
    expect(res[1].error).toMatchObject({ code: -32603, message: 'No related chunks found for that location' });
    expect(res[2].error.code).toBe(-32601);
    expect(res[3].error.code).toBe(-32700);
  });
});
