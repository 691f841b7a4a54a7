/**
 * Issue 34 rows 4 and 14 through the real bin's stdin (one process): a line over 10 MiB, written
 * in pieces as a pipe delivers it, and a line nested 50,000 deep are answered with errors, the
 * requests after them are answered, and the server exits 0 only when stdin closes.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFixtureDir } from '../fixtures/repo';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');
const MIB = 1024 * 1024;

describe('quarry mcp framing over a real pipe', () => {
  it('answers an oversized line and a too-deep line with errors and keeps serving until stdin closes', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--root', writeFixtureDir(), '--no-cache'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const line = (m: unknown) => child.stdin.write(JSON.stringify(m) + '\n');
    line({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    line({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const big = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"code_search","arguments":{"query":"${'x'.repeat(12 * MIB)}"}}}\n`;
    for (let at = 0; at < big.length; at += MIB) child.stdin.write(big.slice(at, at + MIB));
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    child.stdin.write(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"code_search","arguments":{"query":${deep}}}}\n`,
    );
    line({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'code_search', arguments: { query: 'calculateTotal', fileType: 'ts' } },
    });
    line({ jsonrpc: '2.0', id: 5, method: 'ping' });
    child.stdin.end();
    const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
    const answers = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: number; result?: any; error?: any });
    const byId = (id: number) => answers.find((a) => a.id === id);
    expect(code, err).toBe(0);
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(byId(2)?.error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/^Request too large/),
    });
    expect(byId(3)?.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('nested too deep'),
    });
    expect(byId(4)?.result.structuredContent.total).toBe(2);
    expect(byId(5)?.result).toEqual({});
    expect(err).not.toContain('ReadBuffer exceeded');
  }, 60_000);
});
