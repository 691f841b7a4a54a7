/**
 * The engine's surface is derived from the method table: every method the table lists exists
 * and nothing else; calls resolve with Outcomes (errors as data, never thrown); a job takes
 * (jobId, onEvent, ...args), streams through onEvent and can be cancelled by id.
 */
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import { createEngineApi } from './engine';
import { ENGINE_METHODS, type JobEvent } from './protocol';

const FILES: Record<string, string> = {};
for (let i = 0; i < 400; i++) FILES[`src/f${i}.ts`] = `export const needle${i} = ${i};\n`.repeat(20);

describe('createEngineApi', () => {
  it('has exactly the methods of the table, each a function', () => {
    const api = createEngineApi();
    const listed = Object.values(ENGINE_METHODS).flatMap((group) => Object.keys(group));
    expect(new Set(listed).size).toBe(listed.length); // no method in two services
    expect(Object.keys(api).sort()).toEqual([...listed].sort());
    for (const name of listed) expect(typeof api[name as keyof typeof api]).toBe('function');
  });

  it('answers calls with Outcomes: a bad argument and no repository are errors as data', async () => {
    const api = createEngineApi();
    expect(await api.readFile('')).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument', message: 'path must be a non-empty string' },
    });
    expect(await api.readBytes('', 10)).toMatchObject({
      ok: false,
      error: { message: 'path must be a non-empty string' },
    });
    expect(await api.listDir('')).toMatchObject({
      ok: false,
      error: { code: 'NotFound', data: { reason: 'noRepository' } },
    });
    expect(await api.history({ root: 7 as unknown as string })).toMatchObject({
      ok: false,
      error: { message: 'root must be a repository key' },
    });
  });

  it('runs a job as (jobId, onEvent, ...args), streams batches, and stops it on cancel', async () => {
    const api = createEngineApi({ yieldBudgetMs: 1 });
    const opened = await api.openRepo('open-1', () => {}, { kind: 'memory', name: 'app', files: FILES });
    expect(opened).toMatchObject({ ok: true, value: { stats: { key: 'memory:app', files: 400 } } });
    const events: JobEvent<unknown>[] = [];
    const all = await api.search('s-1', (e) => void events.push(e), {
      pattern: 'needle',
      mode: 'literal',
      caseMode: 'sensitive',
    });
    expect(all.ok && all.value.stats.total).toBe(8000);
    expect(events.some((e) => e.type === 'batch')).toBe(true);
    const running = api.search('s-2', () => {}, {
      pattern: 'needle',
      mode: 'literal',
      caseMode: 'sensitive',
    });
    expect(await api.cancel('s-2')).toEqual({ ok: true, value: true });
    const end = await running;
    expect(end.ok && end.value.stats.ending).toBe('cancelled');
    expect(await api.cancel('s-2')).toEqual({ ok: true, value: false });
  });
});

describe('the viewer colouring (syntax)', () => {
  it("answers the window's exact colouring from the grammar's queries, null where it has none", async () => {
    const api = createEngineApi({ grammarLoader: nodeGrammarLoader });
    const files = {
      'a.ts': "// one\nexport function go(n: number) {\n  return 'x' + n;\n}\n",
      'notes.txt': 'export function not code\n',
    };
    await api.openRepo('o', () => {}, { kind: 'memory', name: 'app', files });
    const r = await api.syntax('a.ts', 2, 3);
    expect(r.ok).toBe(true);
    const window = r.ok ? r.value : null;
    expect(window).toMatchObject({ path: 'a.ts', language: 'typescript', fromLine: 2 });
    const lines = files['a.ts'].split('\n');
    const shown = window!.lines.map((spans, i) =>
      spans.map(([s, e, k]) => `${k}:${lines[i + 1].slice(s, e)}`),
    );
    expect(shown[0]).toEqual(expect.arrayContaining(['kw:export', 'kw:function', 'fn:go', 'type:number']));
    expect(shown[1]).toEqual(expect.arrayContaining(['kw:return', "str:'x'"]));
    expect(await api.syntax('notes.txt', 1, 1)).toEqual({ ok: true, value: null });
    expect(await api.syntax('a.ts', 3, 2)).toMatchObject({ ok: false, error: { code: 'InvalidArgument' } });
    expect(await api.syntax('gone.ts', 1, 1)).toMatchObject({ ok: false, error: { code: 'NotFound' } });
    // without grammars (a host that ships none) the viewer keeps its own colouring
    const bare = createEngineApi();
    await bare.openRepo('o', () => {}, { kind: 'memory', name: 'app', files });
    expect(await bare.syntax('a.ts', 1, 1)).toEqual({ ok: true, value: null });
  });
});
