/**
 * Navigation through the engine on a four-language repository (issue #18): definitions ranked
 * by the importing file, references grouped with the definition first, outlines, workspace
 * symbols, and the errors people meet (not a name, index not built yet, a missing file).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../adapters/node/grammars';
import { POLYGLOT } from '../core/nav/fixtures/polyglot';
import { definitionRanks, orderReferenceFiles } from '../core/nav/references';
import type { ReferenceFile } from '../core/nav/types';
import { EngineClient, inThreadTransport } from './client';
import { createEngineApi } from './engine';

let client: EngineClient;
beforeAll(async () => {
  client = new EngineClient(() => inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader })));
  await client.openRepo({ kind: 'memory', name: 'polyglot', files: POLYGLOT }).done;
  await client.indexRepo({}).done;
}, 60_000);
afterAll(() => client.dispose());

/** A references job's files in the panel's order, and its count. */
async function refs(c: EngineClient, name: string, path: string) {
  const files: ReferenceFile[] = [];
  // the client hands the end's last items to onBatch too
  const end = await c.references({ name, path }).onBatch((batch) => files.push(...batch)).done;
  const rank = await c.definitions({ name, path }).then(
    (r) => definitionRanks(r.definitions),
    () => undefined,
  );
  return {
    files: orderReferenceFiles(files, path, rank),
    total: end.stats.total,
    limitHit: end.stats.limitHit,
    ending: end.stats.ending,
  };
}

const defs = async (name: string, path: string) =>
  (await client.definitions({ name, path })).definitions.map((d) => `${d.path}:${d.line}:${d.rank}`);

describe('go to definition', () => {
  it('TypeScript: the imported definition before a decoy of the same name', async () => {
    expect(await defs('formatMoney', 'ts/src/app.ts')).toEqual([
      'ts/src/money.ts:2:imported',
      'ts/legacy/format.ts:2:workspace',
    ]);
    expect(await defs('Ledger', 'ts/src/app.ts')).toEqual(['ts/src/money.ts:6:imported']);
    // a method by its short name, from the class's own file
    expect(await defs('total', 'ts/src/money.ts')).toEqual(
      expect.arrayContaining(['ts/src/money.ts:11:same file']),
    );
  });
  it('Python: a relative import ranks its module first', async () => {
    expect(await defs('apply_discount', 'py/shop/checkout.py')).toEqual([
      'py/shop/pricing.py:1:imported',
      'py/tools/apply.py:1:workspace',
    ]);
    expect(await defs('Cart', 'py/shop/checkout.py')).toEqual(['py/shop/pricing.py:6:imported']);
  });
  it('Go: a package import through go.mod', async () => {
    expect(await defs('Round', 'go/main.go')).toEqual(['go/money/money.go:4:imported']);
    expect(await defs('Wallet', 'go/main.go')).toEqual(['go/money/money.go:8:imported']);
  });
  it("C: the source's definition, then the header's declaration", async () => {
    expect(await defs('clamp_value', 'c/main.c')).toEqual(['c/util.c:3:imported', 'c/util.h:3:declaration']);
  });
  it('says it is search-based, and finds nothing for an unknown name', async () => {
    const r = await client.definitions({ name: 'noSuchThing', path: 'ts/src/app.ts' });
    expect(r).toEqual({ name: 'noSuchThing', definitions: [], searchBased: true });
  });
  it('refuses what is not a name', async () => {
    await expect(client.definitions({ name: 'a.b', path: '' })).rejects.toMatchObject({
      code: 'InvalidArgument',
      message: '"a.b" is not an identifier: click a name in the code',
    });
    await expect(client.definitions({ name: '', path: '' })).rejects.toMatchObject({
      code: 'InvalidArgument',
    });
  });
});

describe('find references', () => {
  it('whole-word, case-sensitive, grouped with the definition file and line first', async () => {
    const r = await refs(client, 'formatMoney', 'ts/src/app.ts');
    // definition files first, in the definitions' ranking (the imported one before the decoy), then the file asked from
    expect(r.files.map((f) => f.path)).toEqual(['ts/src/money.ts', 'ts/legacy/format.ts', 'ts/src/app.ts']);
    expect(r.files[0].lines[0]).toMatchObject({ line: 2, definition: true });
    expect(r.files[0].lines.map((l) => l.line)).toEqual([2, 12]);
    expect(r.ending).toBe('complete');
    expect(r.total).toBe(5); // matching lines: money.ts 2, format.ts 1, app.ts 2
    expect(r.limitHit).toBe(false);
    const c = await refs(client, 'clamp_value', 'c/main.c');
    expect(c.files.map((f) => f.path).sort()).toEqual(['c/main.c', 'c/util.c', 'c/util.h']);
  });
  it('streams files as they are found and can be cancelled', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 400; i++)
      many[`src/f${String(i).padStart(3, '0')}.ts`] =
        `import { shared } from './lib';\nexport const v${i} = shared(${i});\n`;
    many['src/lib.ts'] = 'export function shared(n: number) {\n  return n;\n}\n';
    const c = new EngineClient(() =>
      inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader })),
    );
    try {
      await c.openRepo({ kind: 'memory', name: 'many', files: many }).done;
      const batches: number[] = [];
      const end = await c
        .references({ name: 'shared', path: 'src/f000.ts' })
        .onBatch((b) => batches.push(b.length)).done;
      expect(batches.length).toBeGreaterThan(1);
      expect(end.stats.total).toBe(801);
      let seen = 0;
      const job = c.references({ name: 'shared', path: '' }).onBatch((b) => {
        seen += b.length;
        if (seen < 800) job.cancel();
      });
      const cancelled = await job.done;
      expect(cancelled.stats.ending).toBe('cancelled');
      expect(seen).toBeLessThan(401);
    } finally {
      c.dispose();
    }
  });
});

describe('symbols', () => {
  it('outlines a file as a tree on name lines', async () => {
    const tree = await client.outline('ts/src/money.ts');
    expect(tree.map((n) => [n.name, n.line])).toEqual([
      ['formatMoney', 2],
      ['Ledger', 6],
    ]);
    expect(tree[1].children.map((n) => [n.name, n.chunkType, n.line])).toEqual([
      ['Ledger.add', 'method', 8],
      ['Ledger.total', 'method', 11],
    ]);
    await expect(client.outline('nope.ts')).rejects.toMatchObject({ code: 'NotFound' });
  });
  it('finds workspace symbols fuzzily, best first, on their name lines', async () => {
    const hits = await client.workspaceSymbols('fmtmon', 10);
    expect(hits.map((h) => `${h.path}:${h.line}`)).toEqual(['ts/legacy/format.ts:2', 'ts/src/money.ts:2']);
    expect(hits[0].positions.length).toBe(6);
    const exact = await client.workspaceSymbols('Wallet', 5);
    expect(exact[0]).toMatchObject({
      name: 'Wallet',
      chunkType: 'struct',
      path: 'go/money/money.go',
      line: 8,
    });
  });
});

describe('before the index is built', () => {
  it('outlines by parsing the file, and says definitions wait for the index', async () => {
    const c = new EngineClient(() =>
      inThreadTransport(createEngineApi({ grammarLoader: nodeGrammarLoader })),
    );
    try {
      await c.openRepo({ kind: 'memory', name: 'early', files: POLYGLOT }).done;
      expect((await c.outline('py/shop/pricing.py')).map((n) => n.name)).toEqual(['apply_discount', 'Cart']);
      await expect(c.definitions({ name: 'Cart', path: '' })).rejects.toMatchObject({
        code: 'NotFound',
        data: { reason: 'indexNotReady' },
      });
      // references need only the text search
      const early = await refs(c, 'Cart', '');
      expect(early.files.map((f) => f.path).sort()).toEqual(['py/shop/checkout.py', 'py/shop/pricing.py']);
    } finally {
      c.dispose();
    }
  });
});
