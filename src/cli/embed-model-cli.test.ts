/**
 * `--embed-model DIR` / QUARRY_EMBED_MODEL: the real bin (and `quarry mcp`) answering semantic
 * search with a tiny ONNX model the test writes (onnx-fixture.testutil.ts, never downloaded), the
 * results naming the model that answered, the vectors cached per model (the same model reuses
 * them, another one embeds anew, USE lite's are kept apart), and a folder that is no model refused
 * with exit code 2.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeModelDir, tinyGraph, writeModelDir } from '../adapters/embed/onnx-fixture.testutil';

const BIN = path.resolve(__dirname, '../../bin/quarry.mjs');
const temps: string[] = [];
const models: string[] = [];
let repo = '';
let modelA = '';
let modelB = '';

function temp(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

function quarry(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, QUARRY_ROOT: '', QUARRY_EMBED_MODEL: '', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** quarry() without blocking: independent runs side by side (each is ~0.7 s of starting the bin). */
function quarryAsync(args: string[], env: Record<string, string> = {}): Promise<ReturnType<typeof quarry>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, QUARRY_ROOT: '', QUARRY_EMBED_MODEL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Result {
  path: string;
  symbol: string;
  model: string;
  why: { similarity?: number };
}

const ask = (extra: string[], env: Record<string, string>) => {
  const r = quarry(
    [
      'call',
      'semantic_code_search',
      JSON.stringify({ query: 'find the code search', type: 'semantic', limit: 3 }),
      '--root',
      repo,
      ...extra,
    ],
    env,
  );
  expect(r.code, r.stdout + r.stderr).toBe(0);
  const results = JSON.parse(r.stdout) as Result[];
  expect(results.length).toBeGreaterThan(0);
  const ids = new Set(results.map((x) => x.model));
  expect(ids.size).toBe(1);
  for (const x of results) expect(x.why.similarity).toEqual(expect.any(Number));
  return { model: results[0].model, embedded: r.stderr.includes('quarry: embedding'), stderr: r.stderr };
};

beforeAll(() => {
  repo = temp('quarry-embed-repo-');
  mkdirSync(path.join(repo, 'src'));
  writeFileSync(
    path.join(repo, 'src/finder.ts'),
    '// the code search finder\nexport function findCode(query: string) {\n  return search(query);\n}\n',
  );
  writeFileSync(
    path.join(repo, 'src/greet.py'),
    'def hello_world():\n    """Say hello, world!"""\n    return "hello"\n',
  );
  modelA = writeModelDir({}, 'tiny-a');
  modelB = writeModelDir({ 'onnx/model.onnx': tinyGraph({ shift: 1 }) }, 'tiny-b');
  models.push(modelA, modelB);
});

afterAll(() => {
  models.forEach(removeModelDir);
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('quarry call with --embed-model', () => {
  it('answers from the ONNX model, names it, and keeps each model its own vectors', () => {
    const env = { QUARRY_CACHE_DIR: temp('quarry-embed-cache-') };
    const a1 = ask(['--embed-model', modelA], env);
    expect(a1.model).toMatch(/^onnx:tiny-bert:[0-9a-f]+$/);
    expect(a1.embedded).toBe(true);
    expect(a1.stderr).toContain(`quarry: semantic search with the model ${a1.model} (${modelA})`);
    // the same model (through the environment): the vectors come from the cache
    const a2 = ask([], { ...env, QUARRY_EMBED_MODEL: modelA });
    expect(a2).toMatchObject({ model: a1.model, embedded: false });
    // another model: its own id, embedded anew
    const b1 = ask([`--embed-model=${modelB}`], env);
    expect(b1.model).toMatch(/^onnx:tiny-bert:/);
    expect(b1.model).not.toBe(a1.model);
    expect(b1.embedded).toBe(true);
    // the built-in model: USE lite, its vectors stored apart from the ONNX model's
    const use = ask([], env);
    expect(use).toMatchObject({ model: 'use-lite-512', embedded: true });
    const b2 = ask(['--embed-model', modelB], env);
    expect(b2).toMatchObject({ model: b1.model, embedded: false });
    // the ONNX models share one stored set, checked by id: A's were replaced by B's
    expect(ask(['--embed-model', modelA], env)).toMatchObject({ model: a1.model, embedded: true });
    // --embed-model wins over the environment
    expect(ask(['--embed-model', modelA], { ...env, QUARRY_EMBED_MODEL: modelB })).toMatchObject({
      model: a1.model,
      embedded: false,
    });
  }, 180_000);

  it('the view tool semantic_search names the model too', () => {
    const r = quarry(
      [
        'call',
        'semantic_search',
        JSON.stringify({ query: 'hello world', type: 'semantic' }),
        '--root',
        repo,
        '--no-cache',
        '--embed-model',
        modelA,
      ],
      {},
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const view = JSON.parse(r.stdout) as { hits: unknown[]; model: string };
    expect(view.model).toMatch(/^onnx:tiny-bert:/);
    expect(view.hits.length).toBeGreaterThan(0);
  }, 60_000);

  it('refuses a folder that is no model with exit code 2, before any tool runs', async () => {
    const noOnnx = writeModelDir({ 'onnx/model.onnx': null }, 'no-onnx');
    const noTokenizer = writeModelDir({ 'tokenizer.json': null }, 'no-tokenizer');
    models.push(noOnnx, noTokenizer);
    const file = path.join(temp('quarry-embed-file-'), 'model.onnx');
    writeFileSync(file, 'x');
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [
        ['--embed-model', noOnnx],
        {},
        /has no onnx\/model\.onnx or model\.onnx or onnx\/model_quantized\.onnx/,
      ],
      [['--embed-model', noTokenizer], {}, /has no tokenizer\.json \(the tokenizer\)/],
      [['--embed-model', path.join(repo, 'missing')], {}, /--embed-model .*missing: no such directory/],
      [['--embed-model', file], {}, /not a directory/],
      [['--embed-model='], {}, /empty/],
      [[], { QUARRY_EMBED_MODEL: noOnnx }, /^QUARRY_EMBED_MODEL .*has no onnx/],
    ];
    // the runs are independent: all at once, then checked in order
    const [missing, ...answers] = await Promise.all([
      quarryAsync(['call', 'search_files', '{}', '--root', repo, '--embed-model']),
      ...cases.map(([flags, env]) =>
        quarryAsync(['call', 'search_files', '{"pattern":"x"}', '--root', repo, ...flags], env),
      ),
    ]);
    for (const [i, [, , message]] of cases.entries()) {
      const r = answers[i];
      expect(r.code, r.stdout).toBe(2);
      const err = JSON.parse(r.stdout).error;
      expect(err.code).toBe('InvalidArgument');
      expect(err.message).toMatch(message);
    }
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout).error.message).toBe('--embed-model needs a directory');
  }, 60_000);
});

describe('quarry mcp with --embed-model', () => {
  it('answers semantic_code_search from the ONNX model, each result naming it', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--root', repo, '--no-cache', '--embed-model', modelB],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'embed-model-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const res = await client.callTool({
        name: 'semantic_code_search',
        arguments: { query: 'hello world', limit: 2 },
      });
      expect(res.isError).toBeFalsy();
      const content = res.content as Array<{ type: string; text: string }>;
      const results = JSON.parse(content[0].text) as Result[];
      expect(results.length).toBeGreaterThan(0);
      for (const r of results) expect(r.model).toMatch(/^onnx:tiny-bert:/);
    } finally {
      await client.close();
    }
  }, 60_000);
});
