import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import { createEngineApi } from './engine';

const FILES: Record<string, string> = {
  'package.json': '{ "name": "mini", "dependencies": { "next": "15.0.0" } }\n',
  'next.config.mjs': 'export default {};\n',
  'app/page.tsx':
    "import { Button } from '../components/Button';\nexport default function Home() {\n  return <Button />;\n}\n",
  'app/api/items/route.ts': 'export async function GET() {\n  return Response.json([]);\n}\n',
  'components/Button.tsx':
    'export const Button = () => <button>{process.env.NEXT_PUBLIC_FEATURE_DARK_MODE}</button>;\n',
};

async function openApi(withParsers = true) {
  const api = createEngineApi({ grammarLoader: withParsers ? nodeGrammarLoader : undefined });
  const opened = await api.openRepo('open-1', () => {}, { kind: 'memory', name: 'mini', files: FILES });
  expect(opened.ok).toBe(true);
  return api;
}

describe('callTool over the engine api', () => {
  it('answers with an Outcome before a repository is open', async () => {
    const out = await createEngineApi().callTool('get_routes', {});
    expect(out).toMatchObject({ ok: false, error: { code: 'NotFound' } });
  });

  it('runs the analysis tools and the flag inventory on the open repository', async () => {
    const api = await openApi();
    const components = await api.callTool('find_components', {});
    expect(
      components.ok &&
        (components.value as { components: Array<{ name: string; uses: { count: number } }> }).components.map(
          (c) => [c.name, c.uses.count],
        ),
    ).toEqual([
      ['Home', 0],
      ['Button', 1],
    ]);
    const routes = await api.callTool('get_routes', {});
    expect(
      routes.ok &&
        (routes.value as { routes: Array<{ path: string; type: string }> }).routes.map(
          (r) => `${r.type} ${r.path}`,
        ),
    ).toEqual(['page /', 'api /api/items']);
    const inventory = await api.callTool('flag_inventory', {});
    expect(
      inventory.ok &&
        (inventory.value as { flags: Array<{ name: string; sdk: string }> }).flags.map((f) => f.name),
    ).toEqual(['NEXT_PUBLIC_FEATURE_DARK_MODE']);
    const status = await api.callTool('feature_status', { featureName: 'dark mode' });
    expect(status.ok && status.value).toMatchObject({
      implemented: true,
      featureFlagged: true,
      flagName: 'NEXT_PUBLIC_FEATURE_DARK_MODE',
    });
    // The result crosses the worker boundary: plain data only.
    expect(JSON.parse(JSON.stringify(status))).toEqual(status);
  });

  it('returns tool errors as {code, message}', async () => {
    const api = await openApi();
    expect(await api.callTool('no_such_tool', {})).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument' },
    });
    expect(await api.callTool('find_components', { namePattern: '(' })).toMatchObject({
      ok: false,
      error: { code: 'InvalidPattern' },
    });
    expect(await api.callTool('feature_status', { featureName: '!!!' })).toMatchObject({
      ok: false,
      error: { code: 'InvalidArgument' },
    });
  });

  it('refuses an unknown field through dispatch, for the contracts and the engine tools alike', async () => {
    const api = await openApi();
    expect(await api.callTool('codebase_search', { query: 'auth', maxresults: 1 })).toEqual({
      ok: false,
      error: {
        code: 'InvalidArgument',
        message:
          'Unknown field: maxresults (allowed: query, root, limit, include_content, file_extensions, path_filter, exclude_paths)',
        data: { field: 'maxresults' },
      },
    });
    expect(await api.callTool('get_routes', { appDir: 'app' })).toMatchObject({
      ok: false,
      error: {
        code: 'InvalidArgument',
        message: 'Unknown field: appDir (allowed: appDirectory, includeApi)',
        data: { field: 'appDir' },
      },
    });
    expect(await api.callTool('ranked_view', { query: 'button', limt: 5 })).toMatchObject({
      ok: false,
      error: {
        message: 'Unknown field: limt (allowed: query, limit, include, exclude, extensions)',
        data: { field: 'limt' },
      },
    });
    expect(await api.callTool('related_view', { path: 'app/page.tsx', line: 2, lines: 1 })).toMatchObject({
      ok: false,
      error: { message: 'Unknown field: lines (allowed: path, line, root, limit)', data: { field: 'lines' } },
    });
    expect(await api.callTool('flag_inventory', { all: true })).toMatchObject({
      ok: false,
      error: { message: 'Unknown field: all (allowed: none)', data: { field: 'all' } },
    });
    // the seed's aliases still pass
    const alias = await api.callTool('search_corpus', { corpus_path: 'app', query: 'Button' });
    expect(alias.ok && (alias.value as { result: { total: number } }).result.total).toBeGreaterThan(0);
  });

  it('says so when the host has no parsers', async () => {
    const api = await openApi(false);
    expect(await api.callTool('find_components', {})).toMatchObject({
      ok: false,
      error: { code: 'EngineError' },
    });
    expect(await api.callTool('flag_inventory', {})).toMatchObject({
      ok: false,
      error: { code: 'EngineError' },
    });
  });
});
