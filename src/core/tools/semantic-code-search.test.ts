import { describe, expect, it } from 'vitest';
import { rejectionOf } from '../../../test/rejection';
import { QuarryError } from '../errors';
import { FakeModel, indexFiles, linesReader } from '../semantic/fake-model.testutil';
import { SemanticIndex } from '../semantic/index';
import { parseLanguage, semanticSearch, type SemanticResult, type SemanticRoot } from '../semantic/search';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool, type ToolContext } from '.';
import { parseSemanticArgs } from './semantic-code-search';

const FILES: Record<string, string> = {
  'src/auth/session.ts':
    '/** Renews the access token when the session has expired. */\nexport function refreshExpiredSession(token: Token) {\n  return renewAccessToken(token);\n}\n',
  'src/storage/blob.ts':
    'export function writeBlob(oid: string, data: Uint8Array) {\n  return objects.put(oid, data);\n}\n',
  'src/storage/disk.ts':
    '// saves the blob bytes to the disk storage\nexport function saveBytesToDisk(bytes: Uint8Array) {\n  fs.writeFileSync(bytes);\n}\n',
  'src/ui/Button.tsx': 'export function Button({ label }: Props) {\n  return <button>{label}</button>;\n}\n',
  'scripts/rows.py':
    'def parse_rows(text):\n    # splits comma separated text into rows\n    return [line.split(",") for line in text.splitlines()]\n',
};

async function rootOf(files: Record<string, string>, model: FakeModel, prefix = ''): Promise<SemanticRoot> {
  const index = indexFiles(files);
  const vectors = new SemanticIndex(model.id, model.dims);
  await vectors.sync(index, linesReader(files), model);
  return { prefix, index, vectors };
}

async function setup() {
  const model = new FakeModel();
  const root = await rootOf(FILES, model);
  return { model, roots: [root] };
}

function invalid(fn: () => unknown): QuarryError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(QuarryError);
    expect((e as QuarryError).code).toBe('InvalidArgument');
    return e as QuarryError;
  }
  throw new Error('expected an InvalidArgument');
}

const paths = (results: readonly SemanticResult[]) => results.map((r) => r.path);
const DISK_QUESTION = 'where does writeBlob save the blob bytes to disk storage';

describe('parseSemanticArgs', () => {
  it('defaults type to hybrid and limit to 5', () => {
    expect(parseSemanticArgs({ query: 'where do we renew tokens' })).toEqual({
      query: 'where do we renew tokens',
      type: 'hybrid',
      limit: 5,
    });
    expect(parseSemanticArgs({ query: 'q', type: 'semantic', limit: 100, language: 'TS' })).toEqual({
      query: 'q',
      type: 'semantic',
      limit: 100,
      language: 'TS',
    });
    expect(parseSemanticArgs({ query: 'q', type: null, limit: null, language: null })).toEqual({
      query: 'q',
      type: 'hybrid',
      limit: 5,
    });
  });

  it('names the field at fault', () => {
    expect(invalid(() => parseSemanticArgs({})).message).toBe('Missing required field: query');
    expect(invalid(() => parseSemanticArgs(undefined)).message).toBe('Missing required field: query');
    expect(invalid(() => parseSemanticArgs({ query: '   ' })).message).toBe('query must not be empty');
    expect(invalid(() => parseSemanticArgs({ query: 42 })).message).toBe('query must be a string');
    expect(invalid(() => parseSemanticArgs({ query: 'q', type: 'vector' })).message).toBe(
      'type must be one of "semantic", "hybrid"',
    );
    for (const limit of [0, 101, 2.5, '5', -1]) {
      const err = invalid(() => parseSemanticArgs({ query: 'q', limit }));
      expect(err.message).toBe('limit must be an integer from 1 to 100');
      expect(err.data.field).toBe('limit');
    }
    expect(invalid(() => parseSemanticArgs({ query: 'q', language: 3 })).message).toBe(
      'language must be a string',
    );
    expect(invalid(() => parseSemanticArgs('query')).message).toBe('arguments must be a JSON object');
  });

  it('refuses an unknown language, listing the names it takes', () => {
    const err = invalid(() => parseSemanticArgs({ query: 'q', language: 'klingon' }));
    expect(err.data).toMatchObject({ field: 'language', value: 'klingon' });
    expect(err.message.startsWith('language must be one of: ')).toBe(true);
    const names = err.message.slice('language must be one of: '.length).split(', ');
    for (const name of [
      'typescript',
      'ts',
      'tsx',
      'javascript',
      'python',
      'go',
      'rust',
      'csharp',
      'c#',
      'c++',
      'markdown',
    ])
      expect(names).toContain(name);
    expect(invalid(() => parseSemanticArgs({ query: 'q', language: '' })).data.field).toBe('language');
  });
});

describe('parseLanguage', () => {
  it.each([
    ['typescript', ['typescript', 'tsx']],
    ['ts', ['typescript', 'tsx']],
    [' TypeScript ', ['typescript', 'tsx']],
    ['tsx', ['tsx']],
    ['c#', ['csharp']],
    ['CS', ['csharp']],
    ['csharp', ['csharp']],
    ['c++', ['cpp']],
    ['golang', ['go']],
    ['py', ['python']],
    ['shell', ['bash']],
    ['scss', ['css']],
  ])('%j', (name, want) => expect([...parseLanguage(name)].sort()).toEqual([...want].sort()));
});

describe('semanticSearch', () => {
  it('type "semantic" orders by similarity, each result with its fields and why', async () => {
    const { model, roots } = await setup();
    const results = await semanticSearch(roots, model, {
      query: 'split comma separated text into rows',
      type: 'semantic',
      limit: 5,
    });
    expect(results.length).toBe(5);
    expect(results[0]).toEqual({
      path: 'scripts/rows.py',
      startLine: 1,
      endLine: 3,
      symbol: 'parse_rows',
      chunkType: 'function',
      language: 'python',
      score: results[0].why.similarity,
      snippet:
        'def parse_rows(text):\n    # splits comma separated text into rows\n    return [line.split(",") for line in text.splitlines()]',
      why: { similarity: results[0].score, terms: [], exactIdentifier: false },
    });
    for (let i = 1; i < results.length; i++)
      expect(results[i - 1].score).toBeGreaterThanOrEqual(results[i].score);
    for (const r of results) {
      expect(r.why.similarity).toBe(r.score);
      expect(Math.round(r.score * 1e4) / 1e4).toBe(r.score);
      expect(r.why.lexicalRank).toBeUndefined();
    }
    expect(results.find((r) => r.path === 'src/ui/Button.tsx')?.language).toBe('tsx');
  });

  it('type "semantic" ranks by meaning, so an exact identifier is not lifted', async () => {
    const { model, roots } = await setup();
    const results = await semanticSearch(roots, model, { query: DISK_QUESTION, type: 'semantic', limit: 3 });
    expect(results.map((r) => r.symbol).slice(0, 2)).toEqual(['saveBytesToDisk', 'writeBlob']);
    expect(results.every((r) => !r.why.exactIdentifier)).toBe(true);
  });

  it('type "hybrid" puts the exact identifier the query names first, with its lexical terms and both ranks', async () => {
    const { model, roots } = await setup();
    const results = await semanticSearch(roots, model, { query: DISK_QUESTION, type: 'hybrid', limit: 3 });
    expect(results.map((r) => r.symbol).slice(0, 2)).toEqual(['writeBlob', 'saveBytesToDisk']);
    expect(results[0]).toMatchObject({
      path: 'src/storage/blob.ts',
      startLine: 1,
      endLine: 3,
      language: 'typescript',
      score: 1,
    });
    expect(results[0].why).toMatchObject({
      exactIdentifier: true,
      lexicalRank: expect.any(Number),
      semanticRank: expect.any(Number),
    });
    expect(results[0].why.terms).toContain('writeblob');
    expect(results[0].why.similarity).toBeGreaterThan(0);
    expect(results[1].why.exactIdentifier).toBe(false);
    // the fused score is 1 / place
    expect(results.map((r) => r.score)).toEqual([1, 0.5, 0.3333]);
  });

  it('type "hybrid" with a one-word query takes it as an identifier', async () => {
    const { model, roots } = await setup();
    const [first] = await semanticSearch(roots, model, { query: 'parse_rows', type: 'hybrid', limit: 5 });
    expect(first).toMatchObject({ symbol: 'parse_rows', why: { exactIdentifier: true, lexicalRank: 1 } });
  });

  it('filters by language (typescript takes tsx too) and by path', async () => {
    const { model, roots } = await setup();
    for (const type of ['semantic', 'hybrid'] as const) {
      const py = await semanticSearch(roots, model, {
        query: 'split text into rows',
        type,
        limit: 10,
        languages: parseLanguage('python'),
      });
      expect(paths(py)).toEqual(['scripts/rows.py']);
      const ts = await semanticSearch(roots, model, {
        query: 'split text into rows',
        type,
        limit: 10,
        languages: parseLanguage('ts'),
      });
      expect(paths(ts).sort()).toEqual([
        'src/auth/session.ts',
        'src/storage/blob.ts',
        'src/storage/disk.ts',
        'src/ui/Button.tsx',
      ]);
      const tsx = await semanticSearch(roots, model, {
        query: 'split text into rows',
        type,
        limit: 10,
        languages: parseLanguage('tsx'),
      });
      expect(paths(tsx)).toEqual(['src/ui/Button.tsx']);
      expect(
        await semanticSearch(roots, model, {
          query: 'split text into rows',
          type,
          limit: 10,
          languages: parseLanguage('go'),
        }),
      ).toEqual([]);
      const storage = await semanticSearch(roots, model, {
        query: DISK_QUESTION,
        type,
        limit: 10,
        pathTest: (p) => p.startsWith('src/storage/'),
      });
      expect(paths(storage).sort()).toEqual(['src/storage/blob.ts', 'src/storage/disk.ts']);
    }
  });

  it('respects the limit', async () => {
    const { model, roots } = await setup();
    for (const type of ['semantic', 'hybrid'] as const) {
      expect((await semanticSearch(roots, model, { query: DISK_QUESTION, type, limit: 2 })).length).toBe(2);
      expect((await semanticSearch(roots, model, { query: DISK_QUESTION, type, limit: 100 })).length).toBe(5);
    }
  });

  it('embeds the query once', async () => {
    const { model, roots } = await setup();
    const before = model.texts;
    await semanticSearch(roots, model, { query: DISK_QUESTION, type: 'hybrid', limit: 5 });
    expect(model.embedded.slice(before)).toEqual([DISK_QUESTION]);
  });

  it('several roots: paths under their prefix, exact identifiers first, then by score', async () => {
    const model = new FakeModel();
    const { 'src/storage/blob.ts': blob, ...rest } = FILES;
    const roots = [
      await rootOf(rest, model, 'app/'),
      await rootOf({ 'src/storage/blob.ts': blob }, model, 'lib/'),
    ];
    const results = await semanticSearch(roots, model, { query: DISK_QUESTION, type: 'hybrid', limit: 4 });
    expect(results[0]).toMatchObject({
      path: 'lib/src/storage/blob.ts',
      symbol: 'writeBlob',
      why: { exactIdentifier: true },
    });
    expect(results.slice(1).every((r) => r.path.startsWith('app/') && !r.why.exactIdentifier)).toBe(true);
    for (let i = 2; i < results.length; i++)
      expect(results[i - 1].score).toBeGreaterThanOrEqual(results[i].score);
    const semantic = await semanticSearch(roots, model, { query: DISK_QUESTION, type: 'semantic', limit: 2 });
    expect(semantic.map((r) => r.path)).toEqual(['app/src/storage/disk.ts', 'lib/src/storage/blob.ts']);
  });
});

describe('semantic_code_search through callTool', () => {
  const workspace = () =>
    new Workspace([new MemorySource(FILES, { name: 'repo', absoluteRoot: '/work/repo' })]);

  it('answers with the model and roots the context gives, passing its signal', async () => {
    const { model, roots } = await setup();
    const signals: Array<AbortSignal | undefined> = [];
    const controller = new AbortController();
    const ctx: ToolContext = {
      workspace: workspace(),
      signal: controller.signal,
      semantic: async (signal) => {
        signals.push(signal);
        return { model, roots };
      },
    };
    const out = (await callTool(
      'semantic_code_search',
      { query: 'compare rows of comma separated text', type: 'semantic', limit: 1, language: 'py' },
      ctx,
    )) as SemanticResult[];
    expect(out).toEqual([
      expect.objectContaining({
        path: 'scripts/rows.py',
        symbol: 'parse_rows',
        language: 'python',
        chunkType: 'function',
      }),
    ]);
    expect(signals).toEqual([controller.signal]);
    const hybrid = (await callTool(
      'semantic_code_search',
      { query: DISK_QUESTION },
      ctx,
    )) as SemanticResult[];
    expect(hybrid.length).toBe(5);
    expect(hybrid[0]).toMatchObject({ symbol: 'writeBlob', why: { exactIdentifier: true } });
  });

  it('checks the arguments before asking for the model', async () => {
    let asked = 0;
    const { model, roots } = await setup();
    const ctx: ToolContext = {
      workspace: workspace(),
      semantic: async () => {
        asked++;
        return { model, roots };
      },
    };
    expect(
      (await rejectionOf(callTool('semantic_code_search', { query: 'q', mode: 'semantic' }, ctx))).message,
    ).toMatch(/^Unknown field: mode \(allowed: query, type, limit, language\)$/);
    expect(
      (await rejectionOf(callTool('semantic_code_search', { query: 'q', language: 'klingon' }, ctx))).data
        .field,
    ).toBe('language');
    expect((await rejectionOf(callTool('semantic_code_search', { query: '' }, ctx))).message).toBe(
      'query must not be empty',
    );
    expect(asked).toBe(0);
  });

  it('is an EngineError when the host has no embedding model (after the argument checks)', async () => {
    const ctx: ToolContext = { workspace: workspace() };
    const err = await rejectionOf(
      callTool('semantic_code_search', { query: 'where do we renew tokens' }, ctx),
    );
    expect(err.code).toBe('EngineError');
    expect(err.message).toBe('semantic_code_search needs the embedding model, and this host provides none');
    expect(
      (await rejectionOf(callTool('semantic_code_search', { query: 'q', type: 'vector' }, ctx))).code,
    ).toBe('InvalidArgument');
  });
});
