/**
 * The embedding model on a worker thread (the CLI, the MCP server): embed() posts the texts to
 * embed-thread and waits for its vectors, so an MCP server keeps answering while a folder is
 * embedded. From the bundled CLI the thread is embed-thread.mjs beside cli.mjs; from the
 * TypeScript sources a boot .mjs has tsx compile embed-thread.ts. The thread is referenced only
 * while it has work (an idle one never keeps the process alive); a thread that dies fails what
 * it held, and the next call starts a new one.
 */
import { Worker } from 'node:worker_threads';
import type { EmbeddingModel } from '../../core/semantic/port';
import type { EmbedThreadReply } from './embed-thread';

function spawn(): Worker {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new Worker(new URL('./embed-thread-boot.mjs', here), {
        workerData: { entry: new URL('./embed-thread.ts', here).href },
      })
    : new Worker(new URL('./embed-thread.mjs', here));
}

let shared: Promise<EmbeddingModel> | null = null;

/** The model, on its own thread, started once per process (again after a thread dies). */
export function nodeThreadEmbeddingModel(): Promise<EmbeddingModel> {
  shared ??= start().catch((err: unknown) => {
    shared = null;
    throw err;
  });
  return shared;
}

async function start(): Promise<EmbeddingModel> {
  const worker = spawn();
  worker.unref();
  let next = 0;
  const pending = new Map<number, { resolve: (r: EmbedThreadReply) => void; reject: (e: Error) => void }>();
  const fail = (message: string) => {
    shared = null; // the next call starts a new thread
    for (const p of pending.values()) p.reject(new Error(`The embedding thread stopped: ${message}`));
    pending.clear();
  };
  worker.on('message', (reply: EmbedThreadReply) => {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    p.resolve(reply);
  });
  worker.on('error', (err) => fail(err instanceof Error ? err.message : String(err)));
  worker.on('exit', (code) => fail(`it exited with code ${code}`));
  const ask = (texts: readonly string[]) =>
    new Promise<EmbedThreadReply>((resolve, reject) => {
      const id = ++next;
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts: [...texts] });
    }).then((reply) => {
      if ('error' in reply) throw new Error(reply.error);
      return reply;
    });
  const loaded = await ask([]);
  return {
    id: loaded.modelId,
    dims: loaded.dims,
    embed: async (texts) => (texts.length ? (await ask(texts)).vectors : new Float32Array(0)),
    dispose: () => void worker.terminate(),
  };
}
