/**
 * Issue 34, `quarry mcp` (rows 4, 6 and 14), in this process: what a client that is broken or
 * greedy sends (a line over 10 MiB, arguments nested 50,000 deep, `arguments: null`, a bad
 * protocolVersion, `id: 1.5`) is answered with a clear JSON-RPC error and the server goes on
 * serving; 20 concurrent calls raise no listener warning; cold semantic calls share one
 * embedding run; pings answer while heavy calls run, and heavy calls are served in turn.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtureDir } from '../../test/fixtures/repo';
import { initialize, initialized, sdkClient, startMcp, toolCall } from './mcp-inprocess.testutil';

const MIB = 1024 * 1024;
let root = '';
/** 1,000 files: ten code_search calls over it take seconds, and a cold index parses for a while. */
let wide = '';
/** 200 files: enough parse tasks in flight at once to pass ten listeners on one signal. */
let medium = '';

/** `files` small TypeScript files over 30 folders. */
function writeWideTree(files: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-mcp-wide-'));
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, 'src', `m${i % 30}`);
    fs.mkdirSync(sub, { recursive: true });
    let text = '';
    for (let f = 0; f < 6; f++)
      text += `export function handler${i}_${f}(request: Request, total: number): number {\n  return compute${f}(total * ${i}, "token${i}x${f}") + request.size;\n}\n\n`;
    fs.writeFileSync(path.join(sub, `file${i}.ts`), text);
  }
  return dir;
}

beforeAll(() => {
  root = writeFixtureDir();
  wide = writeWideTree(1000);
  medium = writeWideTree(200);
});

afterAll(() => {
  for (const dir of [wide, medium]) fs.rmSync(dir, { recursive: true, force: true });
});

describe('row 4: a line over 10 MiB', () => {
  it('is answered with an error (its id read from the end of the line) and the server keeps serving', async () => {
    const mcp = startMcp(root);
    mcp.write(initialize(1));
    mcp.write(initialized);
    // the SDK's client writes the id last: {"method":..,"params":..,"jsonrpc":"2.0","id":7}
    const big = JSON.stringify({
      method: 'tools/call',
      params: { name: 'code_search', arguments: { query: 'x'.repeat(11 * MIB) } },
      jsonrpc: '2.0',
      id: 7,
    });
    mcp.stdin.write(big.slice(0, 5 * MIB));
    mcp.stdin.write(big.slice(5 * MIB) + '\n');
    mcp.write({ jsonrpc: '2.0', id: 8, method: 'ping' });
    const first = await Promise.race([mcp.answer(8), mcp.exited.then((code) => `exited with ${code}`)]);
    expect(first).toEqual({ jsonrpc: '2.0', id: 8, result: {} });
    expect((await mcp.answer(7)).error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(
        /^Request too large: a line of 11,53\d,\d{3} bytes \(the limit is 10 MiB\); it was not read$/,
      ),
    });
    // a line with no id to be found is dropped (said on stderr), and the next one is read as usual
    mcp.write('['.repeat(1000) + 'y'.repeat(11 * MIB));
    mcp.write(toolCall(9, 'code_search', { query: 'calculateTotal', fileType: 'ts' }));
    expect((await mcp.answer(9)).result?.structuredContent).toMatchObject({ total: 2 });
    expect(await mcp.end()).toBe(0);
    expect(mcp.stderr()).toMatch(/dropped a line of 11,53\d,\d{3} bytes \(over the 10 MiB limit\)/);
    expect(mcp.answers.map((a) => a.id).sort()).toEqual([1, 7, 8, 9]);
  }, 60_000);
});

describe('row 14: malformed requests get -32602 / -32600 with a clear message', () => {
  it('arguments nested 50,000 deep, arguments null, a bad protocolVersion, id 1.5', async () => {
    const mcp = startMcp(root);
    mcp.write(initialize(1, 42));
    mcp.write(initialize(2, 'banana'));
    mcp.write(initialize(3));
    mcp.write(initialized);
    const deep = '['.repeat(50_000) + ']'.repeat(50_000);
    mcp.write(
      `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"code_search","arguments":{"query":${deep}}}}`,
    );
    mcp.write(toolCall(5, 'code_search', null));
    mcp.write(toolCall(6, 'code_search', ['calculateTotal']));
    mcp.write({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { arguments: {} } });
    mcp.write({ jsonrpc: '2.0', id: 1.5, method: 'ping' });
    mcp.write({ jsonrpc: '2.0', id: 8, method: 'ping' });
    await mcp.answer(8);
    expect(await mcp.end()).toBe(0);
    const byId = (id: number) => mcp.answers.find((a) => a.id === id);
    expect(byId(1)?.error).toEqual({
      code: -32602,
      message: 'protocolVersion must be a string naming a version such as "2025-06-18", not 42',
    });
    expect(byId(2)?.error).toEqual({
      code: -32602,
      message: 'protocolVersion must be a string naming a version such as "2025-06-18", not "banana"',
    });
    expect(byId(3)?.result?.protocolVersion).toEqual(expect.any(String));
    expect(byId(4)?.error).toEqual({
      code: -32602,
      message: 'The request is nested too deep: more than 64 levels of arrays and objects',
    });
    expect(byId(5)?.error).toEqual({
      code: -32602,
      message: 'tools/call arguments must be an object, not null',
    });
    expect(byId(6)?.error).toEqual({
      code: -32602,
      message: 'tools/call arguments must be an object, not an array',
    });
    expect(byId(7)?.error).toEqual({
      code: -32602,
      message: 'tools/call needs the tool name in params.name',
    });
    expect(mcp.answers.find((a) => a.id === 1.5)?.error).toEqual({
      code: -32600,
      message: 'Invalid request: id must be a string or an integer, not 1.5',
    });
    expect(byId(8)?.result).toEqual({});
  }, 60_000);
});

describe('row 14: many calls at once', () => {
  it('20 concurrent calls (cold indexes, parse threads) raise no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    const mcp = startMcp(medium);
    try {
      const client = await sdkClient(mcp);
      const calls = Array.from({ length: 20 }, (_, i) =>
        client.callTool({
          name: ['ranked_search', 'related_code', 'codebase_search', 'code_search'][i % 4],
          arguments: [
            { query: 'handler request', limit: 3 },
            { path: 'src/m1/file1.ts', line: 2 },
            { query: 'compute total', limit: 3 },
            { query: 'token7x3' },
          ][i % 4],
        }),
      );
      const results = await Promise.all(calls);
      expect(results.every((r) => !r.isError)).toBe(true);
      await new Promise((r) => setImmediate(r)); // warnings are emitted on the next tick
      expect(warnings.filter((w) => w.includes('MaxListeners'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await mcp.end();
    }
  }, 120_000);

  it('12 concurrent cold semantic_code_search calls embed the chunks once', async () => {
    const mcp = startMcp(writeFixtureDir());
    const client = await sdkClient(mcp);
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        client.callTool({
          name: 'semantic_code_search',
          arguments: { query: 'check that the user credentials are valid', limit: 3 },
        }),
      ),
    );
    expect(results.every((r) => !r.isError)).toBe(true);
    expect(new Set(results.map((r) => JSON.stringify(r.content))).size).toBe(1);
    await mcp.end();
    expect(mcp.stderr().match(/embedding [\d,]+ chunk views/g)).toHaveLength(1);
  }, 120_000);
});

describe('row 6: heavy calls and pings', () => {
  it('pings answer while 10 heavy calls run, the heavy calls are served in turn, and each answers its own lines', async () => {
    const mcp = startMcp(wide);
    const client = await sdkClient(mcp);
    await client.callTool({ name: 'code_search', arguments: { query: 'warm up the search threads' } });
    const t0 = performance.now();
    const done: number[] = [];
    const heavy = Array.from({ length: 10 }, (_, i) =>
      client
        .callTool({ name: 'code_search', arguments: { query: `token\\d+x${i % 6}"`, maxResults: 1000 } })
        .then((r) => {
          done.push(performance.now() - t0);
          return r;
        }),
    );
    // one ping after another while the heavy calls run (5 ms apart): each cycle's length, the
    // wait for the timer included (in this process the client's timer waits for the loop too)
    const rounds: number[] = [];
    let running = true;
    const pinging = (async () => {
      while (running) {
        const start = performance.now();
        await new Promise((r) => setTimeout(r, 5));
        await client.ping();
        rounds.push(performance.now() - start);
      }
    })();
    const results = await Promise.all(heavy);
    running = false;
    await pinging;
    await mcp.end();
    expect(results.every((r) => !r.isError)).toBe(true);
    // every line is its own file's (calls reading at once once got each other's bytes)
    results.forEach((r, i) => {
      const { matches, total } = r.structuredContent as {
        matches: Array<{ path: string; content: string }>;
        total: number;
      };
      expect(total).toBe(1000);
      const foreign = matches.filter(
        (m) => !m.content.includes(`"token${/file(\d+)\.ts$/.exec(m.path)![1]}x${i % 6}"`),
      );
      expect(foreign, `call ${i}`).toEqual([]);
    });
    const total = done[done.length - 1];
    // No absolute times: each bound is a share of the heavy calls' own duration on this machine.
    // Every ping waits at most a small share of it (a step that does not yield would hold them
    // all for most of it), and the first heavy call ends well before the last (served in turn,
    // not all interleaved to the end).
    expect(rounds.length).toBeGreaterThan(3);
    expect(
      Math.max(...rounds),
      `ping round trips ${rounds.map(Math.round)} of ${Math.round(total)} ms`,
    ).toBeLessThan(total / 4);
    expect(done[0], `heavy calls ended at ${done.map(Math.round)} ms`).toBeLessThan(total * 0.6);
  }, 120_000);
});
