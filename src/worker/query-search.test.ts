/**
 * The query language through the EngineClient: type:symbol over the symbol table, type:commit
 * and type:diff over an opened folder's git history (results streamed, the log's extent in the
 * stats), text search narrowed by root:, and the errors a query meets at the edge.
 */
import '../adapters/git/node-shims.testutil';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeHandle } from '../adapters/git/node-handle.testutil';
import { ScratchRepo } from '../adapters/git/scratch-repo.testutil';
import { MemoryIndexStore } from '../core/rank/persist';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import type { HistoryResult } from '../core/query/results';
import { rejectionOf } from '../../test/rejection';
import { memoryFolders } from './memory-folders.testutil';
import { EngineClient, inThreadTransport } from './client';
import { createEngineApi } from './engine';

const repos: ScratchRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.dispose();
});

async function setup() {
  const repo = new ScratchRepo();
  repos.push(repo);
  repo.commit('Add the cart', { 'src/cart.ts': 'export function cartTotal(items) {\n  return 0;\n}\n' });
  repo.commit('Fix rounding in totals\n\nThe total was off by a cent.', {
    'src/cart.ts': 'export function cartTotal(items) {\n  return Math.round(sum(items));\n}\n',
  });
  repo.commit('Add the wallet', { 'src/wallet.ts': 'export class Wallet {\n  deposit() {}\n}\n' });
  const client = new EngineClient(() =>
    inThreadTransport(
      createEngineApi({
        indexStore: new MemoryIndexStore(),
        folderHandles: memoryFolders(),
        grammarLoader: nodeGrammarLoader,
      }),
    ),
  );
  const handle = nodeHandle(repo.dir, 'shop') as unknown as FileSystemDirectoryHandle;
  await client.openRepo({ kind: 'handle', name: 'shop', handle }).done;
  return { repo, client };
}

async function history(client: EngineClient, query: string, mode: 'literal' | 'regex' = 'literal') {
  const results: HistoryResult[] = [];
  const end = await client
    .historySearch(query, { mode, caseSensitive: false })
    .onBatch((b) => results.push(...b)).done;
  return { results, end };
}

describe('query language in the engine', { timeout: 60_000 }, () => {
  it('type:symbol ranks the symbol table and honours file: and count:', async () => {
    const { client } = await setup();
    await client.indexRepo({}).done;
    const r = await client.symbolSearch('type:symbol ctot', { mode: 'literal', caseSensitive: false });
    expect(r.results.map((s) => `${s.path}:${s.line}:${s.name}`)).toEqual(['src/cart.ts:1:cartTotal']);
    const wallet = await client.symbolSearch('type:symbol /^Wallet/ file:wallet count:1', {
      mode: 'literal',
      caseSensitive: false,
    });
    expect(wallet).toMatchObject({
      total: 2,
      results: [{ name: 'Wallet', kind: 'class', path: 'src/wallet.ts' }],
    });
  });

  it('type:commit finds messages with hits marked; type:diff finds added and removed lines', async () => {
    const { repo, client } = await setup();
    const commits = await history(client, 'type:commit off by');
    expect(commits.results).toHaveLength(1);
    const c = commits.results[0];
    if (c.kind !== 'commit') throw new Error(c.kind);
    expect(c.message.slice(c.messageRanges[0][0], c.messageRanges[0][1])).toBe('off by');
    expect(commits.end.stats).toMatchObject({ searched: 3, total: 3, matched: 1, shallow: false });

    const diff = await history(client, 'type:diff /Math\\.round|return 0/', 'literal');
    // the fix removed `return 0` and added Math.round; the first commit added `return 0`
    const log = repo.log();
    expect(diff.results.map((r) => r.oid)).toEqual([log[1].oid, log[2].oid]);
    const d = diff.results[0];
    if (d.kind !== 'diff') throw new Error(d.kind);
    expect(d.files[0].lines.map((l) => `${l.side}${l.line} ${l.text.trim()}`)).toEqual([
      '-2 return 0;',
      '+2 return Math.round(sum(items));',
    ]);
    // select:file: the files and their counts of matching lines, no lines
    const files = await history(client, 'type:diff /Math\\.round|return 0/ select:file');
    const f = files.results[0];
    if (f.kind !== 'diff') throw new Error(f.kind);
    expect(f.files).toEqual([{ path: 'src/cart.ts', change: 'modify', lines: [], moreLines: 2 }]);
    const none = await history(client, 'type:diff cartTotal file:wallet');
    expect(none.results).toEqual([]);
  });

  it('refuses what cannot run, with the query error and its column', async () => {
    const { client } = await setup();
    const err = await rejectionOf(
      client.symbolSearch('type:symbol foo lnag:go', { mode: 'literal', caseSensitive: false }),
    );
    expect(err).toMatchObject({ code: 'InvalidQuery', data: { column: 17 } });
    expect(
      (
        await rejectionOf(
          client.historySearch('type:symbol x', { mode: 'literal', caseSensitive: false }).done,
        )
      ).message,
    ).toBe('historySearch answers type:commit or type:diff, not type:symbol');
    expect(
      (await rejectionOf(client.historySearch('type:diff', { mode: 'literal', caseSensitive: false }).done))
        .message,
    ).toMatch(/type:diff needs a pattern/);
  });
});
