/**
 * Golden ranking (after zoekt's internal/e2e): queries over @babel/core's lib (a pinned dev
 * dependency), each with hand-judged relevant symbols. The test prints recall@5 and MRR for
 * the contract ranker (codebase_search, seed 004's BM25) and for Ranked mode (the people
 * ranker), and fails when either ranker's top 5 differs from test/golden/ranking.json —
 * run with UPDATE_GOLDEN=1 to accept a deliberate ranking change.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../src/adapters/node/grammars';
import { NodeFsSource } from '../../src/adapters/node/fs';
import { Chunker } from '../../src/core/chunk';
import { rankForPeople } from '../../src/core/rank/people';
import { CodeIndexService } from '../../src/core/rank/service';
import { Workspace } from '../../src/core/source/workspace';

const ROOT = path.resolve('node_modules/@babel/core/lib');
const GOLDEN = path.resolve('test/golden/ranking.json');

/** query -> symbol names a developer would want in the top 5 */
const JUDGED: Record<string, string[]> = {
  'load config file': ['loadConfig', 'readConfig', 'loadOneConfig', 'findRootConfig', 'findRelativeConfig'],
  'transform file sync': ['transformFileSync', 'transformFile', 'transformSync'],
  'partial config': ['loadPartialConfig', 'PartialConfig', 'loadPrivatePartialConfig', 'loadPartialConfigSync', 'loadPartialConfigAsync'],
  'resolve plugin': ['resolvePlugin', 'loadPlugin', 'resolveStandardizedName'],
  'cache configurator': ['CacheConfigurator', 'makeSimpleConfigurator'],
  'weak cache': ['makeWeakCache', 'makeWeakCacheSync'],
  'validate preset': ['validatePreset', 'validatePluginObject'],
  'merge options': ['mergeOptions', 'mergeChainOpts', 'mergeDefaultFields'],
  'stack trace limit': ['raiseStackTraceLimit', 'restoreStackTraceLimit'],
  'parse async': ['parseAsync', 'parse'],
  'config item': ['createConfigItem', 'ConfigItem', 'createConfigItemSync', 'createConfigItemAsync'],
  'file helper': ['File.addHelper', 'File.availableHelper', 'File._addHelper', 'PluginPass.addHelper'],
  'code frame error': ['File.buildCodeFrameError', 'PluginPass.buildCodeFrameError'],
  'normalize options': ['normalizeOptions', 'normalizeFile'],
  'ignore list': ['assertIgnoreList', 'shouldIgnore', 'ignoreListReplacer'],
};

function metrics(ranked: string[][], relevant: string[][], k = 5) {
  let recall = 0;
  let mrr = 0;
  ranked.forEach((top, i) => {
    const rel = new Set(relevant[i]);
    const found = [...new Set(top.slice(0, k))].filter((s) => rel.has(s)).length;
    recall += found / Math.min(k, rel.size);
    const first = top.findIndex((s) => rel.has(s));
    mrr += first < 0 ? 0 : 1 / (first + 1);
  });
  return { recall: recall / ranked.length, mrr: mrr / ranked.length };
}

describe('golden ranking over @babel/core', () => {
  it('matches the golden top 5 for both rankers and reports recall@5 / MRR', async () => {
    const chunker = await Chunker.create(nodeGrammarLoader);
    const svc = new CodeIndexService(new Workspace([new NodeFsSource(ROOT)]), async () => chunker);
    await svc.refresh();
    const index = svc.index!;
    const queries = Object.keys(JUDGED);
    const contract = queries.map((q) => index.search(q, 5).map((h) => h.chunk.symbolName));
    const people = queries.map((q) => rankForPeople(index, q, 5).map((h) => h.chunk.symbolName));
    const relevant = queries.map((q) => JUDGED[q]);
    const mc = metrics(contract, relevant);
    const mp = metrics(people, relevant);
    console.log(
      `golden ranking (${queries.length} queries): contract BM25 recall@5 ${mc.recall.toFixed(2)} MRR ${mc.mrr.toFixed(2)}; ` +
        `Ranked mode recall@5 ${mp.recall.toFixed(2)} MRR ${mp.mrr.toFixed(2)}`,
    );
    const current = Object.fromEntries(queries.map((q, i) => [q, { contract: contract[i], ranked: people[i] }]));
    if (process.env.UPDATE_GOLDEN === '1' || !fs.existsSync(GOLDEN)) {
      fs.writeFileSync(GOLDEN, JSON.stringify(current, null, 2) + '\n');
    }
    expect(current).toEqual(JSON.parse(fs.readFileSync(GOLDEN, 'utf8')));
    // Ranked mode exists to do better for people than the raw contract tokenizer
    expect(mp.mrr).toBeGreaterThanOrEqual(mc.mrr);
    expect(mp.recall).toBeGreaterThanOrEqual(0.5);
  });
});
