import { describe, expect, it } from 'vitest';
import { layoutGraph } from '../../../core/explore/layout';
import { LayoutClient, type GraphPlacement, type LayoutPort } from './layout-client';
import {
  answerLayout,
  graphLayoutRequest,
  transferablesOf,
  type GraphLayoutInput,
  type LayoutAnswer,
  type LayoutRequest,
} from './layout-protocol';

/** A small view: two folders of files, a collapsed folder, a package, a repeated id, an edge to nowhere. */
const INPUT: GraphLayoutInput = {
  nodes: [
    { id: 'f:src/a.ts', kind: 'file', group: 'dir:src', groupLabel: 'src' },
    { id: 'f:src/b.ts', kind: 'file', group: 'dir:src', groupLabel: 'src' },
    { id: 'f:src/c.ts', kind: 'file', group: 'dir:src', groupLabel: 'src' },
    { id: 'f:lib/x.ts', kind: 'file', group: 'dir:lib', groupLabel: 'lib' },
    { id: 'd:dir:tools', kind: 'folder', group: 'folders', groupLabel: '' },
    { id: 'f:react', kind: 'external', group: 'external', groupLabel: 'external packages' },
    { id: 'f:src/a.ts', kind: 'file', group: 'dir:lib', groupLabel: 'lib' },
  ],
  edges: [
    { from: 'f:src/a.ts', to: 'f:src/b.ts' },
    { from: 'f:src/b.ts', to: 'f:src/c.ts' },
    { from: 'f:src/c.ts', to: 'f:src/a.ts' },
    { from: 'f:src/a.ts', to: 'f:lib/x.ts' },
    { from: 'f:lib/x.ts', to: 'f:react' },
    { from: 'f:src/a.ts', to: 'f:gone.ts' },
  ],
};

/** The positions core's layoutGraph gives the input on the spot: what the worker must answer. */
function direct(input: GraphLayoutInput): GraphPlacement {
  const layout = layoutGraph(input.nodes, input.edges, {
    groupOf: (n) => ({ id: n.group, label: n.groupLabel }),
  });
  const xy = new Float64Array(input.nodes.length * 2);
  input.nodes.forEach((n, i) => {
    const p = layout.positions.get(n.id)!;
    xy[2 * i] = p.x;
    xy[2 * i + 1] = p.y;
  });
  return { xy, clusters: layout.clusters };
}

/** A worker stand-in: answers with answerLayout, each message structured-cloned with its transfers, as postMessage does. */
class FakePort implements LayoutPort {
  onmessage: LayoutPort['onmessage'] = null;
  onerror: LayoutPort['onerror'] = null;
  terminated = false;
  /** Requests received, and the answers not delivered yet. */
  received: LayoutRequest[] = [];
  held: LayoutAnswer[] = [];
  constructor(private readonly auto = true) {}
  postMessage(message: LayoutRequest, transfer: Transferable[]): void {
    const request = structuredClone(message, { transfer });
    this.received.push(request);
    const answer = answerLayout(request);
    if (this.auto) setTimeout(() => this.deliver(answer), 0);
    else this.held.push(answer);
  }
  deliver(answer: LayoutAnswer): void {
    if (this.terminated) return;
    const copy = structuredClone(answer, { transfer: transferablesOf(answer) });
    this.onmessage?.({ data: copy });
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('layout-protocol', () => {
  it('answers a request with the positions and boxes layoutGraph gives the input', () => {
    const answer = answerLayout(graphLayoutRequest(INPUT, 7));
    expect(answer.type).toBe('graph');
    if (answer.type !== 'graph') return;
    expect(answer.id).toBe(7);
    const want = direct(INPUT);
    expect([...answer.xy]).toEqual([...want.xy]);
    expect(answer.clusters).toEqual(want.clusters);
    // a repeated id is placed where its first occurrence is
    expect([answer.xy[12], answer.xy[13]]).toEqual([answer.xy[0], answer.xy[1]]);
  });

  it('sends plain data: typed arrays (handed over), string lists, node indexes for edges', () => {
    const request = graphLayoutRequest(INPUT, 1);
    expect(request.ids).toEqual(INPUT.nodes.map((n) => n.id));
    expect([...request.kinds]).toEqual([0, 0, 0, 0, 2, 1, 0]);
    expect(request.groupIds).toEqual(['dir:src', 'dir:lib', 'folders', 'external']);
    expect([...request.groups]).toEqual([0, 0, 0, 1, 2, 3, 1]);
    // the edge to a node not in the view is left out, as layoutGraph leaves it out
    expect([...request.edges]).toEqual([0, 1, 1, 2, 2, 0, 0, 3, 3, 5]);
    const transfer = transferablesOf(request);
    expect(transfer).toHaveLength(3);
    const copy = structuredClone(request, { transfer });
    expect(request.edges.byteLength).toBe(0); // handed over, not copied
    const answer = answerLayout(copy);
    expect(transferablesOf(answer)).toHaveLength(1);
    expect(structuredClone(answer)).toEqual(answer);
  });

  it('answers a failure as a message, not a thrown error', () => {
    const bad = { ...graphLayoutRequest(INPUT, 3), groupIds: null } as unknown as LayoutRequest;
    const answer = answerLayout(bad);
    expect(answer).toMatchObject({ type: 'error', id: 3 });
    expect(transferablesOf(answer)).toEqual([]);
  });

  it('lays out an empty view', () => {
    const answer = answerLayout(graphLayoutRequest({ nodes: [], edges: [] }, 1));
    expect(answer).toMatchObject({ type: 'graph', clusters: [] });
  });
});

describe('LayoutClient', () => {
  it('starts the worker on the first request only, and answers through it', async () => {
    const ports: FakePort[] = [];
    const client = new LayoutClient(() => {
      const p = new FakePort();
      ports.push(p);
      return p;
    });
    expect(ports).toHaveLength(0);
    const placed = await client.layoutGraph(INPUT);
    expect(client.inWorker).toBe(true);
    expect([...placed!.xy]).toEqual([...direct(INPUT).xy]);
    await client.layoutGraph(INPUT);
    expect(ports).toHaveLength(1);
    expect(ports[0].received.map((r) => r.id)).toEqual([1, 2]);
    client.dispose();
    expect(ports[0].terminated).toBe(true);
  });

  it('drops a stale answer: a request superseded before its answer settles with null', async () => {
    const port = new FakePort(false);
    const client = new LayoutClient(() => port);
    const small: GraphLayoutInput = { nodes: INPUT.nodes.slice(0, 2), edges: [] };
    const first = client.layoutGraph(small);
    const second = client.layoutGraph(INPUT);
    await expect(first).resolves.toBeNull();
    // the first answer arrives late: dropped (the second is still waiting for its own)
    port.deliver(port.held[0]);
    let settled = false;
    void second.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    port.deliver(port.held[1]);
    const placed = await second;
    expect(placed!.xy).toHaveLength(INPUT.nodes.length * 2);
  });

  it('drops a stale answer that arrives after the newer one', async () => {
    const port = new FakePort(false);
    const client = new LayoutClient(() => port);
    const first = client.layoutGraph(INPUT);
    const second = client.layoutGraph(INPUT);
    port.deliver(port.held[1]);
    port.deliver(port.held[0]);
    expect(await first).toBeNull();
    expect(await second).not.toBeNull();
  });

  it('lays out on the main thread where no worker starts', async () => {
    for (const start of [
      () => null,
      () => {
        throw new Error('Worker is not defined');
      },
    ]) {
      const client = new LayoutClient(start);
      const placed = await client.layoutGraph(INPUT);
      expect(client.inWorker).toBe(false);
      expect([...placed!.xy]).toEqual([...direct(INPUT).xy]);
    }
  });

  it('falls back to the main thread when the worker fails to load, for what is out and what follows', async () => {
    const port = new FakePort(false);
    let starts = 0;
    const client = new LayoutClient(() => (starts++, port));
    const out = client.layoutGraph(INPUT);
    port.onerror?.(new Event('error'));
    expect(port.terminated).toBe(true);
    expect([...(await out)!.xy]).toEqual([...direct(INPUT).xy]);
    expect(client.inWorker).toBe(false);
    expect(await client.layoutGraph(INPUT)).not.toBeNull();
    expect(starts).toBe(1);
    expect(port.received).toHaveLength(1);
  });

  it('rejects with the message of a layout that failed', async () => {
    const port = new FakePort(false);
    const client = new LayoutClient(() => port);
    const out = client.layoutGraph(INPUT);
    port.onmessage?.({ data: { type: 'error', id: 1, message: 'boom' } });
    await expect(out).rejects.toThrow('The graph could not be laid out: boom');
  });

  it('dispose terminates the worker and settles what is out with null', async () => {
    const port = new FakePort(false);
    const client = new LayoutClient(() => port);
    const out = client.layoutGraph(INPUT);
    client.dispose();
    expect(port.terminated).toBe(true);
    expect(await out).toBeNull();
    expect(await client.layoutGraph(INPUT)).toBeNull();
    expect(port.received).toHaveLength(1);
  });
});
