/**
 * Semantic search through the engine, as the app calls it: enable (model, then embedding, with
 * progress), semantic_search for the UI, semantic_code_search for agents, stored vectors
 * reused after a reopen (nothing embedded again), cancel, and the errors people can hit.
 */
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import { nodeEmbeddingModel } from '../adapters/node/model-files';
import { MemoryIndexStore } from '../core/rank/persist';
import type { EmbeddingModel } from '../core/semantic/port';
import { createEngineApi } from './engine';
import type { JobEvent, Progress, SemanticResult, SemanticStats } from './protocol';

const FILES: Record<string, string> = {
  'src/auth/session.ts':
    '/** Renews the access token when the session has expired. */\nexport function refreshExpiredSession(token: string, clock: Clock) {\n  if (clock.now() > token.expiresAt) return renewToken(token);\n  return token;\n}\n',
  'src/auth/login.ts':
    '// checks the password against the stored hash\nexport function verifyPassword(user: User, password: string) {\n  return compareHash(password, user.hash);\n}\n',
  'src/csv/parse.ts':
    '/** Splits comma separated text into rows of fields. */\nexport function parseCsv(text: string) {\n  return text.split("\\n").map((l) => l.split(","));\n}\n',
  'src/ui/Button.tsx':
    'export function Button({ label }: { label: string }) {\n  return <button>{label}</button>;\n}\n',
};

/** The Node model, counting the texts it embeds. */
function countingModel() {
  const counter = { texts: 0, loads: 0 };
  const load = async (): Promise<EmbeddingModel> => {
    counter.loads++;
    const m = await nodeEmbeddingModel();
    return { id: m.id, dims: m.dims, embed: (t) => ((counter.texts += t.length), m.embed(t)) };
  };
  return { counter, load };
}

async function openEngine(store = new MemoryIndexStore(), model = countingModel()) {
  const api = createEngineApi({
    grammarLoader: nodeGrammarLoader,
    indexStore: store,
    semanticModel: model.load,
  });
  expect((await api.openRepo('open', () => {}, { kind: 'memory', name: 'app', files: FILES })).ok).toBe(true);
  expect((await api.indexRepo('index', () => {}, {})).ok).toBe(true);
  return { api, store, model };
}

describe('semantic search in the engine', () => {
  it('enables with progress, answers both types with why, and reuses stored vectors after a reopen', async () => {
    const { api, store, model } = await openEngine();
    expect(await api.semanticStatus()).toMatchObject({ ok: true, value: { state: 'off', vectors: 0 } });
    const events: Progress[] = [];
    const end = await api.enableSemantic(
      'sem',
      (e: JobEvent<never>) => void (e.type === 'progress' && events.push(e.data)),
    );
    expect(end.ok).toBe(true);
    const stats = (end as { value: { stats: SemanticStats } }).value.stats;
    expect(stats).toMatchObject({ ending: 'complete', chunks: 4 });
    expect(stats.embedded).toBe(4);
    expect(events.some((p) => p.phase === 'embedding')).toBe(true);
    expect(await api.semanticStatus()).toMatchObject({
      ok: true,
      value: { state: 'ready', vectors: 4, chunks: 4 },
    });

    const sem = await api.callTool('semantic_search', {
      query: 'renew a login that timed out',
      type: 'semantic',
    });
    const semantic = (sem as { value: SemanticResult }).value;
    expect(semantic.hits[0]).toMatchObject({
      path: 'src/auth/session.ts',
      symbolName: 'refreshExpiredSession',
    });
    expect(semantic.hits[0].why.similarity).toBeGreaterThan(
      semantic.hits[semantic.hits.length - 1].why.similarity!,
    );
    expect(semantic.hits[0].lines[0]).toMatchObject({ line: 1 });

    const hyb = await api.callTool('semantic_search', { query: 'parseCsv', limit: 2 });
    const hybrid = (hyb as { value: SemanticResult }).value;
    expect(hybrid.hits[0]).toMatchObject({
      path: 'src/csv/parse.ts',
      why: { exactIdentifier: true, lexicalRank: 1 },
    });
    // the lexical terms are marked in the snippet
    expect(hybrid.hits[0].lines.some((l) => l && l.ranges.length)).toBe(true);

    const contract = await api.callTool('semantic_code_search', {
      query: 'compare the password with its hash',
      language: 'typescript',
      limit: 1,
    });
    expect(contract).toMatchObject({
      ok: true,
      value: [{ path: 'src/auth/login.ts', symbol: 'verifyPassword', language: 'typescript' }],
    });
    const tsx = await api.callTool('semantic_code_search', { query: 'a clickable button', language: 'tsx' });
    expect((tsx as { value: Array<{ path: string }> }).value.map((r) => r.path)).toEqual([
      'src/ui/Button.tsx',
    ]);

    // a new engine on the same store: the vectors are read back, nothing is embedded again
    const before = model.counter.texts;
    const again = await openEngine(store, model);
    const second = await again.api.enableSemantic('sem2', () => {});
    expect((second as { value: { stats: SemanticStats } }).value.stats).toMatchObject({
      embedded: 0,
      vectors: 4,
    });
    expect(model.counter.texts).toBe(before);
  }, 60_000);

  it('refuses bad input with the tool messages and says when it cannot answer', async () => {
    const { api } = await openEngine();
    expect(await api.callTool('semantic_code_search', {})).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument', message: 'Missing required field: query' },
    });
    expect(await api.callTool('semantic_code_search', { query: 'x', type: 'vector' })).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument', message: 'type must be one of "semantic", "hybrid"' },
    });
    expect(await api.callTool('semantic_code_search', { query: 'x', limit: 0 })).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument', message: 'limit must be an integer from 1 to 100' },
    });
    expect(await api.callTool('semantic_code_search', { query: 'x', language: 'cobol' })).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument' },
    });
    expect(await api.callTool('semantic_code_search', { query: 'x', k: 3 })).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument', message: expect.stringContaining('Unknown field: k') },
    });
    const none = createEngineApi({ grammarLoader: nodeGrammarLoader });
    await none.openRepo('o', () => {}, { kind: 'memory', name: 'app', files: FILES });
    await none.indexRepo('i', () => {}, {});
    expect(await none.semanticStatus()).toMatchObject({ ok: true, value: { state: 'unavailable' } });
    expect(await none.callTool('semantic_code_search', { query: 'x' })).toMatchObject({
      ok: false,
      error: {
        code: 'NotFound',
        message: 'This build has no embedding model: semantic search is unavailable',
        data: { reason: 'semanticUnavailable' },
      },
    });
  }, 60_000);

  it('a failed model load is reported and the next attempt retries; a cancelled enable ends cancelled', async () => {
    let fail = true;
    const store = new MemoryIndexStore();
    const api = createEngineApi({
      grammarLoader: nodeGrammarLoader,
      indexStore: store,
      semanticModel: async () => {
        if (fail) throw new Error('The embedding model could not be loaded: offline');
        return nodeEmbeddingModel();
      },
    });
    await api.openRepo('o', () => {}, { kind: 'memory', name: 'app', files: FILES });
    await api.indexRepo('i', () => {}, {});
    expect(await api.enableSemantic('s1', () => {})).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('offline') },
    });
    expect(await api.semanticStatus()).toMatchObject({
      ok: true,
      value: { state: 'failed', error: { message: expect.stringContaining('offline') } },
    });
    fail = false;
    const run = api.enableSemantic('s2', () => {});
    await api.cancel('s2');
    const end = await run;
    expect(end.ok && (end.value as { stats: SemanticStats }).stats.ending).toMatch(/cancelled|complete/);
    expect(await api.enableSemantic('s3', () => {})).toMatchObject({
      ok: true,
      value: { stats: { ending: 'complete', vectors: 4 } },
    });
  }, 60_000);
});
