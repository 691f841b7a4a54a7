import { describe, expect, it } from 'vitest';
import type { Chunk, ChunkType } from '../chunk/types';
import { SymbolTable } from '../nav/symbol-table';
import { planQuery } from './plan';
import { PATTERN_CHECK, planPathTest } from './plan-engine';
import { parseQuery } from './parse';
import { searchSymbols, type SymbolSource } from './symbols';

const chunk = (path: string, symbolName: string, chunkType: ChunkType, startLine = 1): Chunk =>
  ({ path, symbolName, chunkType, startLine, endLine: startLine + 2 }) as Chunk;

const sources = (): SymbolSource[] => [
  {
    prefix: '',
    table: SymbolTable.from([
      chunk('src/money.ts', 'formatMoney', 'function', 3),
      chunk('src/money.test.ts', 'formatMoneyCase', 'function'),
      chunk('lib/legacy.py', 'format_money', 'function'),
      chunk('src/wallet.ts', 'Wallet', 'class'),
      chunk('src/wallet.ts', 'Wallet.deposit', 'method', 9),
    ]),
  },
];

function run(query: string) {
  const plan = planQuery(parseQuery(query), { caseSensitive: false, defaultCount: 50, check: PATTERN_CHECK });
  if (plan.type !== 'symbol') throw new Error(plan.type);
  return searchSymbols(sources(), plan.name, {
    pathTest: planPathTest(plan),
    caseMode: plan.caseMode,
    limit: plan.count,
  }).map((h) => `${h.path}:${h.chunk.symbolName}`);
}

describe('type:symbol', () => {
  it('a literal ranks as Go to Symbol does: fuzzy, word starts, then shorter names', () => {
    expect(run('type:symbol fmtmon')).toEqual([
      'src/money.ts:formatMoney',
      'src/money.test.ts:formatMoneyCase', // camelCase humps are word starts, as in Ctrl+T
      'lib/legacy.py:format_money',
    ]);
  });

  it('a regex matches names; a whole-name hit first; positions are the hit', () => {
    expect(run('type:symbol /^Wallet/')).toEqual(['src/wallet.ts:Wallet', 'src/wallet.ts:Wallet.deposit']);
    const [hit] = searchSymbols(
      sources(),
      { pattern: 'Money', mode: 'regex' },
      { pathTest: null, caseMode: 'sensitive', limit: 1 },
    );
    expect(hit.positions).toEqual([6, 7, 8, 9, 10]);
  });

  it('file:, -file:, lang: and count: narrow the symbols', () => {
    expect(run('type:symbol format -file:test')).toEqual([
      'src/money.ts:formatMoney',
      'lib/legacy.py:format_money',
    ]);
    expect(run('type:symbol format lang:python')).toEqual(['lib/legacy.py:format_money']);
    expect(run('type:symbol count:1 format')).toHaveLength(1);
    expect(run('type:symbol file:wallet')).toEqual(['src/wallet.ts:Wallet', 'src/wallet.ts:Wallet.deposit']);
  });
});
