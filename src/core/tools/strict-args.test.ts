/** additionalProperties: false, enforced by callTool for every tool: an unknown field is an error. */
import { describe, expect, it } from 'vitest';
import { fixtureTree } from '../../../test/fixtures/repo';
import { rejectionOf } from '../../../test/rejection';
import { MemorySource } from '../source/memory';
import { Workspace } from '../source/workspace';
import { callTool, TOOLS, toolFields } from '.';
import type { ToolContext } from './types';

/**
 * A context with a workspace and no index: `indexLookups` counts every look for one (any
 * context field naming an index or the roots that hold them), so a refusal can be shown
 * to come before the index refresh.
 */
function ctx() {
  const state = { indexLookups: 0 };
  const workspace = new Workspace([
    new MemorySource(fixtureTree(), { name: 'repo', absoluteRoot: '/work/repo' }),
  ]);
  const c = new Proxy({ workspace } as ToolContext, {
    get(target, key) {
      if (typeof key === 'string' && /index|roots/i.test(key)) state.indexLookups++;
      return Reflect.get(target, key);
    },
  });
  return { ctx: c, state };
}

describe('unknown fields', () => {
  it('every tool declares additionalProperties: false', () => {
    expect(TOOLS.length).toBe(15);
    for (const t of TOOLS) expect(t.inputSchema.additionalProperties, t.name).toBe(false);
  });

  it.each(TOOLS.map((t) => [t.name, t] as const))(
    '%s refuses a misspelled field, naming it and the allowed ones',
    async (name, tool) => {
      const fields = Object.keys(tool.inputSchema.properties);
      const typo = `${fields[0]}x`;
      const { ctx: c, state } = ctx();
      const err = await rejectionOf(callTool(name, { [typo]: 1 }, c));
      expect(err.code).toBe('InvalidArgument');
      expect(err.message).toBe(`Unknown field: ${typo} (allowed: ${fields.join(', ')})`);
      expect(err.data).toEqual({ field: typo });
      expect(state.indexLookups).toBe(0);
    },
  );

  it("codebase_search: the brief's example, refused before the index refresh and before the other checks", async () => {
    const { ctx: c, state } = ctx();
    const err = await rejectionOf(callTool('codebase_search', { query: 'auth', maxresults: 1 }, c));
    expect(err.toJSON()).toEqual({
      code: 'InvalidArgument',
      message:
        'Unknown field: maxresults (allowed: query, root, limit, include_content, file_extensions, path_filter, exclude_paths)',
      data: { field: 'maxresults' },
    });
    // a missing query and a bad limit are not reported first
    const first = await rejectionOf(callTool('codebase_search', { limit: 0, maxresults: 1 }, c));
    expect(first.message).toMatch(/^Unknown field: maxresults /);
    const related = await rejectionOf(callTool('find_related', { path: 'src/app.ts', line: 0, lines: 3 }, c));
    expect(related.message).toBe('Unknown field: lines (allowed: path, line, root, limit)');
    expect(state.indexLookups).toBe(0);
    // the same arguments without the typo do go for the index (and find none in this context)
    expect((await rejectionOf(callTool('codebase_search', { query: 'auth', limit: 1 }, c))).code).toBe(
      'EngineError',
    );
    expect(state.indexLookups).toBeGreaterThan(0);
  });

  it('names the first unknown field when there are several, and refuses one whose value is undefined', async () => {
    const { ctx: c } = ctx();
    expect((await rejectionOf(callTool('read_file', { filePath: 'README.md', a: 1, b: 2 }, c))).data).toEqual(
      { field: 'a' },
    );
    expect((await rejectionOf(callTool('code_search', { query: 'TODO', max: undefined }, c))).data).toEqual({
      field: 'max',
    });
  });

  it('a property of Object.prototype is not a field', async () => {
    const { ctx: c } = ctx();
    const err = await rejectionOf(
      callTool('code_search', JSON.parse('{"query":"TODO","constructor":1,"__proto__":2}'), c),
    );
    expect(err.data).toEqual({ field: 'constructor' });
  });

  it("keeps seed 002's aliases (they are schema properties) and every schema property", async () => {
    const { ctx: c } = ctx();
    expect(toolFields(TOOLS.find((t) => t.name === 'search_corpus')!)).toEqual(
      expect.arrayContaining(['path', 'corpus_path', 'pattern', 'query', 'search']),
    );
    for (const args of [
      { corpus_path: 'src', query: 'TODO' },
      { path: 'src', search: 'TODO' },
      {
        corpus_path: 'src',
        pattern: 'TODO',
        mode: 'literal',
        file_glob: '*.ts',
        context_lines: 0,
        max_results: 5,
        max_file_size: 100000,
        case_sensitive: true,
      },
    ]) {
      const r = (await callTool('search_corpus', args, c)) as { success: boolean; result: { total: number } };
      expect(r.success).toBe(true);
      expect(r.result.total).toBeGreaterThan(0);
    }
    const r = (await callTool('code_search', { query: 'TODO', fileType: 'ts', maxResults: 1 }, c)) as {
      matches: unknown[];
    };
    expect(r.matches).toHaveLength(1);
  });

  it('arguments that are not an object keep their own error; absent arguments are an empty object', async () => {
    const { ctx: c } = ctx();
    for (const bad of [[1], 'x', 3]) {
      const err = await rejectionOf(callTool('code_search', bad, c));
      expect(err.data).toEqual({ field: '(arguments)' });
    }
    expect((await rejectionOf(callTool('code_search', undefined, c))).message).toBe(
      'Missing required field: query',
    );
    expect((await rejectionOf(callTool('code_search', null, c))).message).toBe(
      'Missing required field: query',
    );
  });
});
