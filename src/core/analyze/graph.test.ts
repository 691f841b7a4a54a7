import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeGraph, cyclicComponents, type GraphEdge } from './graph';

const e = (from: string, to: string, kind: GraphEdge['kind'] = 'static'): GraphEdge => ({ from, to, kind });

describe('import graph analysis', () => {
  it('finds a runtime cycle with a shortest cycle as evidence, and lists type-only and dynamic cycles apart', () => {
    const nodes = ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts', 'g.ts', 'main.ts'];
    const edges = [
      e('main.ts', 'a.ts'),
      e('a.ts', 'b.ts'),
      e('b.ts', 'c.ts'),
      e('c.ts', 'a.ts'),
      e('b.ts', 'a.ts'), // a shorter way round inside the same component
      e('d.ts', 'e.ts'),
      e('e.ts', 'd.ts', 'type'), // type-only back edge: no runtime cycle
      e('f.ts', 'g.ts'),
      e('g.ts', 'f.ts', 'dynamic'),
    ];
    const r = analyzeGraph(nodes, edges, { entryPoints: ['main.ts'] });
    expect(r.cycles).toEqual([{ files: ['a.ts', 'b.ts', 'c.ts'], path: ['a.ts', 'b.ts', 'a.ts'] }]);
    expect(r.typeCycles).toEqual([{ files: ['d.ts', 'e.ts'], path: ['d.ts', 'e.ts', 'd.ts'] }]);
    expect(r.dynamicCycles).toEqual([{ files: ['f.ts', 'g.ts'], path: ['f.ts', 'g.ts', 'f.ts'] }]);
    expect(r.hubs.fanIn[0]).toEqual({ file: 'a.ts', count: 3 });
    expect(r.hubs.fanOut[0]).toEqual({ file: 'b.ts', count: 2 });
    // every file but main.ts is imported (a type-only or dynamic import counts), and main.ts is an entry point
    expect(r.orphans).toEqual([]);
  });

  it('a file importing itself is a cycle of one; a file nothing imports is an orphan unless it is an entry point', () => {
    const r = analyzeGraph(['self.ts', 'lonely.ts', 'index.ts'], [e('self.ts', 'self.ts')], {
      entryPoints: ['index.ts'],
    });
    expect(r.cycles).toEqual([{ files: ['self.ts'], path: ['self.ts', 'self.ts'] }]);
    expect(r.orphans).toEqual(['lonely.ts', 'self.ts']);
  });

  it('handles a 20,000-file chain closed into one cycle without overflowing the stack', () => {
    const n = 20_000;
    const nodes = Array.from({ length: n }, (_, i) => `f${i}.ts`);
    const edges = nodes.map((f, i) => e(f, nodes[(i + 1) % n]));
    const r = analyzeGraph(nodes, edges);
    expect(r.cycles).toHaveLength(1);
    expect(r.cycles[0].files).toHaveLength(n);
    expect(r.cycles[0].path).toHaveLength(n + 1);
  });

  it('cyclic components are exactly the sets of mutually reachable files (property, against brute force)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 })), { maxLength: 20 }),
        (pairs) => {
          const nodes = Array.from({ length: 8 }, (_, i) => `n${i}`);
          const edges = pairs.map(([a, b]) => ({ from: nodes[a], to: nodes[b] }));
          const reach = nodes.map(() => new Set<number>());
          for (let s = 0; s < 8; s++) {
            const todo = [s];
            while (todo.length) {
              const v = todo.pop()!;
              for (const [a, b] of pairs) {
                if (a !== v || reach[s].has(b)) continue;
                reach[s].add(b);
                todo.push(b);
              }
            }
          }
          const expected: string[][] = [];
          const placed = new Set<number>();
          for (let s = 0; s < 8; s++) {
            if (placed.has(s)) continue;
            const comp = nodes
              .map((_, t) => t)
              .filter((t) => t === s || (reach[s].has(t) && reach[t].has(s)));
            comp.forEach((t) => placed.add(t));
            if (comp.length > 1 || reach[s].has(s)) expected.push(comp.map((t) => nodes[t]).sort());
          }
          const got = cyclicComponents(nodes, edges);
          expect(new Set(got.map((c) => c.join()))).toEqual(new Set(expected.map((c) => c.join())));
          // every reported cycle path is made of real edges and returns to its start
          for (const c of analyzeGraph(
            nodes,
            pairs.map(([a, b]) => e(nodes[a], nodes[b])),
          ).cycles) {
            expect(c.path[0]).toBe(c.path[c.path.length - 1]);
            for (let i = 0; i + 1 < c.path.length; i++)
              expect(edges.some((x) => x.from === c.path[i] && x.to === c.path[i + 1])).toBe(true);
          }
        },
      ),
    );
  });
});
