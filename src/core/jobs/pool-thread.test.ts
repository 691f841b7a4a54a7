import { describe, expect, it } from 'vitest';
import { messagePortThread, type WorkerLike } from './pool-thread';

class FakeWorker implements WorkerLike {
  posted: Array<{ message: unknown; transfer?: ArrayBuffer[] }> = [];
  terminated = 0;
  private listeners = new Map<string, Array<(e: Event) => void>>();
  postMessage(message: unknown, transfer: ArrayBuffer[]): void {
    this.posted.push({ message, transfer });
  }
  addEventListener(type: string, listener: (e: Event) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  terminate(): void {
    this.terminated++;
  }
  emit(type: string, event: object): void {
    for (const l of this.listeners.get(type) ?? []) l(event as Event);
  }
}

describe('messagePortThread', () => {
  it('posts with the transfer list and hands each message on as a reply', () => {
    const worker = new FakeWorker();
    const thread = messagePortThread<string, number>(worker, 'the worker failed');
    const replies: number[] = [];
    thread.listen(
      (r) => replies.push(r),
      () => undefined,
    );
    const buffer = new ArrayBuffer(4);
    thread.post('a', [buffer]);
    thread.post('b', []);
    expect(worker.posted).toEqual([
      { message: 'a', transfer: [buffer] },
      { message: 'b', transfer: [] },
    ]);
    worker.emit('message', { data: 7 });
    expect(replies).toEqual([7]);
  });

  it('exits once, terminated, with the error message or its own', () => {
    const worker = new FakeWorker();
    const thread = messagePortThread<string, number>(worker, 'the worker failed');
    const exits: string[] = [];
    thread.listen(
      () => undefined,
      (reason) => exits.push(reason),
    );
    worker.emit('error', { message: '' });
    worker.emit('messageerror', { message: 'again' });
    expect(exits).toEqual(['the worker failed']);
    expect(worker.terminated).toBe(1);
  });
});
