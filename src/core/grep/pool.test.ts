/**
 * The search pool gives exactly the one-thread search's answer: the same batches in the same
 * order, the same summary (counts, caps, skips, ending), whatever the chunking, the number of
 * lanes, the order lanes answer in, shipped bytes or roots opened by the lanes, an index's
 * candidates or a walk (property); and a lane that dies hands its chunks back.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Chunk } from '../chunk/types';
import { splitLinesForIndex } from '../rank/lines';
import { CodeIndexService, type ChunkerLike } from '../rank/service';
import { MemorySource } from '../source/memory';
import type { FileSource } from '../source/types';
import { Workspace } from '../source/workspace';
import {
  searchChunk,
  serveLane,
  taskSource,
  toWire,
  transferables,
  type ChunkResult,
  type ChunkTask,
  type LaneMessage,
  type LaneReply,
} from './lane';
import { LanePool, type LaneThread } from './lane-pool';
import type { SearchPool } from './pool';
import { searchWorkspace, type SearchOptions } from './search';
import type { GrepFileResult, GrepRequest } from './types';

const chunker: ChunkerLike = {
  chunkFile: (path: string, text: string): Chunk[] => [
    {
      path,
      startLine: 1,
      endLine: splitLinesForIndex(text).length,
      symbolName: 'file',
      chunkType: 'block',
    } as Chunk,
  ],
};

const word = fc.constantFrom(
  'alpha',
  'beta',
  'return',
  'x',
  'Error',
  'TypeError',
  'the',
  ' ',
  '  ',
  '(',
  'é',
);
const line = fc.array(word, { maxLength: 8 }).map((w) => w.join(' '));
const text = fc.array(line, { maxLength: 30 }).map((l) => l.join('\n'));
const content = fc.oneof(
  { weight: 8, arbitrary: text },
  { weight: 1, arbitrary: fc.constant('bin\u0000ary return') },
  { weight: 1, arbitrary: fc.constant('') },
);
const names = fc.constantFrom(
  'a.ts',
  'b.js',
  'c/d.ts',
  'c/e.md',
  'c/f/g.ts',
  'h/i.txt',
  'h/j.ts',
  'k.ts',
  'node_modules/m.js',
  '.gitignore',
);
const tree = fc.dictionary(names, content, { minKeys: 1, maxKeys: 10 });
const request = fc.record({
  pattern: fc.constantFrom(
    'return',
    'alpha',
    'Error',
    'beta|alpha',
    '\\b[A-Z][a-z]+Error\\b',
    'x',
    'the',
    'zzz',
    '(?i)ERROR',
    'e',
  ),
  mode: fc.constant<'regex'>('regex'),
  caseMode: fc.constantFrom<NonNullable<GrepRequest['caseMode']>>('sensitive', 'insensitive'),
  maxResults: fc.integer({ min: 0, max: 40 }),
  countLimit: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
  contextBefore: fc.integer({ min: 0, max: 2 }),
  contextAfter: fc.integer({ min: 0, max: 2 }),
  include: fc.option(
    fc.constantFrom('*.ts', 'c/**', '!*.md').map((g) => [g]),
    { nil: undefined },
  ),
  directory: fc.option(fc.constantFrom('c', 'h'), { nil: undefined }),
  maxLineChars: fc.option(fc.integer({ min: 0, max: 12 }), { nil: undefined }),
  maxFileBytes: fc.option(fc.integer({ min: 0, max: 300 }), { nil: undefined }),
});
const poolShape = fc.record({
  lanes: fc.integer({ min: 1, max: 3 }),
  firstBytes: fc.integer({ min: 1, max: 30 }),
  maxBytes: fc.integer({ min: 1, max: 100 }),
  maxFiles: fc.integer({ min: 1, max: 4 }),
  byPath: fc.boolean(),
  small: fc.constantFrom(0, 0, 150),
  heavy: fc.constantFrom(0, 0, 4),
  coordinator: fc.constantFrom<'first' | 'share'>('first', 'first', 'share'),
  wire: fc.boolean(),
  delays: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 8 }),
});

type PoolShape = {
  lanes: number;
  firstBytes: number;
  maxBytes: number;
  maxFiles: number;
  byPath: boolean;
  /** Candidate bytes an indexed search keeps on the coordinator (SMALL_SEARCH_BYTES; 0: none). */
  small?: number;
  /** The lanes are turned off after an answer heavier than 1/heavy of its chunk (HEAVY_ANSWER_SHARE; 0: never). */
  heavy?: number;
  coordinator?: 'first' | 'share';
  wire?: boolean;
  delays: number[];
};

/**
 * A MemorySource whose readTransient fills one shared buffer (valid until the next read, as the
 * interface says; NodeFsSource does so) and answers a task later: a coordinator that ran two of
 * its own chunks at once would read one file's bytes as another's.
 */
class TransientSource extends MemorySource {
  private shared = new Uint8Array(64);
  async readTransient(path: string): Promise<Uint8Array> {
    const bytes = await this.read(path);
    if (this.shared.length < bytes.length) this.shared = new Uint8Array(bytes.length * 2);
    this.shared.set(bytes);
    await new Promise((r) => setTimeout(r, 0)); // the walk and other chunks run meanwhile
    return this.shared.subarray(0, bytes.length);
  }
}

/** An in-process pool: lanes answer after random delays (so out of order), from shipped bytes or the root "opened by path". */
function fakePool(
  ws: Workspace,
  shape: PoolShape,
  open?: (rootIndex: number) => FileSource,
): SearchPool & { chunks: number } {
  // a lane opens the root itself: a source of its own (the same object unless `open` makes one)
  const byRef = {
    get: (ref: string) =>
      open ? open(Number(ref.slice('root-'.length))) : ws.roots[Number(ref.slice('root-'.length))],
  };
  let n = 0;
  /** Each lane answers its chunks one after another, as serveLane does; lanes take chunks in turn. */
  const laneTails: Array<Promise<unknown>> = Array.from({ length: shape.lanes }, () => Promise.resolve());
  const pool = {
    lanes: shape.lanes,
    chunks: 0,
    coordinatorSearches: shape.coordinator ?? 'first',
    chunking: {
      firstBytes: shape.firstBytes,
      maxBytes: Math.max(shape.firstBytes, shape.maxBytes),
      maxFiles: shape.maxFiles,
      localBytes: 0,
      smallBytes: shape.small ?? 0,
      heavyShare: shape.heavy ?? 0,
    },
    rootRef: (source: FileSource) => (shape.byPath ? `root-${ws.roots.indexOf(source)}` : null),
    async run(task: ChunkTask, signal: AbortSignal): Promise<ChunkResult> {
      pool.chunks++;
      const turn = n++;
      const lane = turn % shape.lanes;
      const wait = shape.delays[turn % shape.delays.length];
      const copy = structuredClone(task); // what crosses a thread boundary
      // (taskSource keeps one search's roots: a lane of its own, in a thread, has its own copy)
      copy.search = task.search * shape.lanes + lane;
      const answer = laneTails[lane].then(async () => {
        await new Promise((r) => setTimeout(r, wait));
        const result = await searchChunk(
          taskSource(copy, (ref) => byRef.get(ref)!),
          copy,
          signal,
        );
        return structuredClone(shape.wire === false ? result : toWire(result)); // as a thread answers
      });
      laneTails[lane] = answer.catch(() => undefined);
      return answer;
    },
  };
  return pool;
}

/** A lane served over a MessageChannel in this thread, as a worker would serve it. */
function channelLane(openRoot: ((root: string) => FileSource) | null): LaneThread {
  const channel = new MessageChannel();
  const serve = serveLane(openRoot, (r) => channel.port2.postMessage(r, transferables(r)));
  channel.port2.onmessage = (e: MessageEvent<LaneMessage>) => serve(e.data);
  return {
    post: (m, transfer) => channel.port1.postMessage(m, transfer),
    listen: (onReply) => void (channel.port1.onmessage = (e: MessageEvent<LaneReply>) => onReply(e.data)),
    terminate: () => {
      channel.port1.close();
      channel.port2.close();
    },
  };
}

async function collect(ws: Workspace, req: GrepRequest, options: SearchOptions, stopAfter?: number) {
  const batches: GrepFileResult[] = [];
  try {
    const summary = await searchWorkspace(
      ws,
      req,
      (r) => {
        batches.push(r);
        return stopAfter === undefined || batches.length < stopAfter;
      },
      options,
    );
    const { elapsedMs: _e, ...rest } = summary;
    return { batches, summary: rest };
  } catch (err) {
    // bad input (a directory that is not there) fails alike
    return { batches, error: String(err) };
  }
}

describe('the search pool', () => {
  it('answers exactly as one thread does (property)', async () => {
    let pooled = 0;
    await fc.assert(
      fc.asyncProperty(
        tree,
        request,
        poolShape,
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
        fc.boolean(),
        fc.boolean(),
        async (files, req, shape, indexed, stopAfter, transient, held) => {
          const ws = new Workspace([transient ? new TransientSource(files) : new MemorySource(files)]);
          let prefilter;
          if (indexed) {
            // held: the files' bytes in memory (the direct path reads none; lanes get them shipped)
            const svc = new CodeIndexService(ws, async () => chunker, undefined, 'index', {
              segmentChars: 40,
              holdContents: held,
            });
            await svc.refresh();
            prefilter = svc.prefilter();
          }
          const one = await collect(ws, req, { prefilter }, stopAfter);
          const pool = fakePool(ws, shape, transient ? () => new TransientSource(files) : undefined);
          const many = await collect(ws, req, { prefilter, pool }, stopAfter);
          expect(many).toEqual(one);
          if (pool.chunks) pooled++;
        },
      ),
      { numRuns: 400 },
    );
    expect(pooled).toBeGreaterThan(30); // the lanes really took chunks (about 1 run in 6)
  });

  it('answers exactly as one thread does over several roots', async () => {
    const a = new MemorySource({ 'x.ts': 'return 1\nreturn 2\n', 'y.ts': 'alpha\n' }, { name: 'a' });
    const b = new MemorySource({ 'x.ts': 'return 3\n', 'z/w.ts': 'return 4 return\n' }, { name: 'b' });
    const ws = new Workspace([a, b]);
    for (const maxResults of [0, 1, 2, 3, 10]) {
      const req: GrepRequest = { pattern: 'return', mode: 'literal', maxResults, countLimit: 3 };
      const shape = { lanes: 2, firstBytes: 1, maxBytes: 1, maxFiles: 1, byPath: true, delays: [3, 0, 1] };
      expect(await collect(ws, req, { pool: fakePool(ws, shape) })).toEqual(await collect(ws, req, {}));
    }
  });

  it('stops exactly where one thread stops, for every cap and count limit', async () => {
    const ws = new Workspace([
      new MemorySource({
        'a.ts': 'none\n',
        'b.ts': 'return\n'.repeat(5),
        'c.ts': 'x\nreturn return\n'.repeat(3),
        'd.ts': 'return\n',
      }),
    ]);
    const shape = { lanes: 2, firstBytes: 1, maxBytes: 8, maxFiles: 1, byPath: false, delays: [2, 0] };
    for (let maxResults = 0; maxResults <= 10; maxResults++) {
      for (const countLimit of [undefined, 0, 1, 2, 4, 5, 6, 7, 8, 9, 12]) {
        const req: GrepRequest = { pattern: 'return', mode: 'literal', maxResults, countLimit };
        expect(
          await collect(ws, req, { pool: fakePool(ws, shape) }),
          `maxResults ${maxResults}, countLimit ${countLimit}`,
        ).toEqual(await collect(ws, req, {}));
      }
    }
  });

  it('the chunks of a lane that dies are searched by the coordinator; after two dead lanes no more threads start', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`f${String(i).padStart(2, '0')}.ts`] = `return ${i}\n`.repeat(5);
    const ws = new Workspace([new MemorySource(files)]);
    let spawned = 0;
    const dying = (): LaneThread => {
      spawned++;
      let exit: (reason: string) => void = () => {};
      return {
        post: (m: LaneMessage) => {
          if ('task' in m) setTimeout(() => exit('the thread crashed'), 0);
        },
        listen: (_onReply, onExit) => void (exit = onExit),
        terminate: () => {},
      };
    };
    const pool = Object.assign(new LanePool(dying, 2, () => null), {
      chunking: { firstBytes: 10, maxBytes: 20, maxFiles: 2, localBytes: 0, heavyShare: 0 },
      coordinatorSearches: 'first' as const,
    });
    const req: GrepRequest = { pattern: 'return', mode: 'literal', maxResults: 1000 };
    expect(await collect(ws, req, { pool })).toEqual(await collect(ws, req, {}));
    // 15 chunks went out; after two threads died unanswered (a third may have started meanwhile) no more were started
    expect(spawned).toBeGreaterThanOrEqual(2);
    expect(spawned).toBeLessThanOrEqual(3);
  });

  it('a source with one transient read buffer: the coordinator and each lane search one chunk at a time', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 24; i++)
      files[`f${String(i).padStart(2, '0')}.ts`] = `${'x\n'.repeat(i)}return ${i}\n`;
    const ws = new Workspace([new TransientSource(files)]);
    const req: GrepRequest = { pattern: 'return', mode: 'literal', contextBefore: 1 };
    const one = await collect(ws, req, {});
    expect(one.batches.map((b) => b.matches[0].line)).toEqual(Array.from({ length: 24 }, (_, i) => i + 1));
    // the coordinator's share of the chunks, read from its own source
    const shape = {
      lanes: 1,
      firstBytes: 1,
      maxBytes: 1,
      maxFiles: 1,
      byPath: false,
      coordinator: 'share' as const,
      delays: [1],
    };
    expect(await collect(ws, req, { pool: fakePool(ws, shape) })).toEqual(one);
    // a real lane that opened the root by path gets two chunks at once (IN_FLIGHT_PER_LANE)
    const root = new TransientSource(files);
    const lanes = Object.assign(
      new LanePool(
        () => channelLane(() => root),
        1,
        () => 'root',
      ),
      {
        chunking: { firstBytes: 1, maxBytes: 1, maxFiles: 1, localBytes: 0 },
        coordinatorSearches: 'first' as const,
      },
    );
    expect(await collect(ws, req, { pool: lanes })).toEqual(one);
    lanes.dispose();
  });

  it('a real lane (serveLane over a message channel) answers, and a cancel is answered as Cancelled', async () => {
    const ws = new Workspace([
      new MemorySource({ 'a.ts': 'return 1\n', 'b.ts': 'no\n', 'c.ts': 'return 2\n'.repeat(3) }),
    ]);
    const threads: LaneThread[] = [];
    const spawn = (): LaneThread => {
      const lane = channelLane(null);
      threads.push(lane);
      return lane;
    };
    const pool = Object.assign(new LanePool(spawn, 2, () => null), {
      chunking: { firstBytes: 1, maxBytes: 1, maxFiles: 1, localBytes: 0, heavyShare: 0 },
      coordinatorSearches: 'first' as const,
    });
    const req: GrepRequest = { pattern: 'return', mode: 'literal', contextAfter: 1 };
    expect(await collect(ws, req, { pool })).toEqual(await collect(ws, req, {}));
    expect(threads.length).toBe(2);
    const ctl = new AbortController();
    ctl.abort();
    await expect(
      pool.run(
        { search: 1, request: req, plan: { indexed: false }, root: null, files: [], deliver: 1, count: 1 },
        ctl.signal,
      ),
    ).rejects.toMatchObject({
      code: 'Cancelled',
    });
    pool.dispose();
  });
  it('a chunk the coordinator searched itself that delivered many lines a file keeps the lanes idle', async () => {
    const common: Record<string, string> = {};
    const long: Record<string, string> = {};
    for (let i = 0; i < 20; i++) {
      common[`f${String(i).padStart(2, '0')}.ts`] = `return ${i}\n`.repeat(12); // 12 lines a file (over HEAVY_LINES_PER_FILE)
      long[`f${String(i).padStart(2, '0')}.js`] = `return ${'x'.repeat(3000)}\n`; // one minified line a file: heavy in text, not in lines
    }
    const all: GrepRequest = { pattern: 'return', mode: 'literal', maxResults: 1000 };
    const run = async (files: Record<string, string>, heavyShare: number, req = all) => {
      const ws = new Workspace([new MemorySource(files)]);
      let spawned = 0;
      const pool = Object.assign(
        new LanePool(
          () => {
            spawned++;
            return channelLane(null);
          },
          1,
          () => null,
        ),
        {
          chunking: { firstBytes: 64, maxBytes: 64, maxFiles: 1, localBytes: 0, heavyShare },
          coordinatorSearches: 'share' as const,
        },
      );
      expect(await collect(ws, req, { pool })).toEqual(await collect(ws, req, {}));
      pool.dispose();
      return spawned;
    };
    expect(await run(common, 4)).toBe(0); // the first chunk (the coordinator's share) was heavy
    expect(await run(common, 0)).toBe(1); // weighed never: the lane takes its share
    expect(await run(long, 4)).toBe(1);
    // once the lines to deliver are delivered, the rest is counted: light answers, the lane takes its share again
    expect(
      await run(common, 4, { pattern: 'return', mode: 'literal', maxResults: 30, countLimit: 10_000 }),
    ).toBe(1);
  });

  it('the coordinator gives its thread back between files as the one-thread search does (a cancel is seen mid-search)', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`f${String(i).padStart(3, '0')}.ts`] = `const hit${i} = 1\n`;
    const ws = new Workspace([new MemorySource(files)]);
    const req: GrepRequest = { pattern: 'hit', mode: 'literal', maxResults: 1000 };
    // every file searched here is a chunk of the coordinator's own (the lane is never asked)
    const pool = fakePool(ws, {
      lanes: 1,
      firstBytes: 1,
      maxBytes: 1,
      maxFiles: 1,
      byPath: false,
      coordinator: 'first',
      delays: [0],
    });
    let asked = 0;
    const yielder = { maybeYield: () => void asked++ };
    const all = await collect(ws, req, { pool, yielder });
    expect(all).toEqual(await collect(ws, req, {}));
    expect(asked).toBeGreaterThanOrEqual(200);
    // a yielder that hands the thread back on every call: a cancel sent from a timer lands mid-search
    const ac = new AbortController();
    const yielding = { maybeYield: () => new Promise<void>((r) => setTimeout(r, 0)) };
    setTimeout(() => ac.abort(), 0);
    const r = await searchWorkspace(ws, req, () => {}, { pool, yielder: yielding, signal: ac.signal });
    expect(r.ending).toBe('cancelled');
    expect(r.filesSearched).toBeLessThan(200);
  });
});
