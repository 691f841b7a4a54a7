/**
 * A worker thread of one of Quarry's Node pools (parsing, search, the embedding model), as core's
 * PoolThread: started from the bundled `<name>.mjs` beside the CLI's bundle, or from the
 * TypeScript sources through thread-boot.mjs, which has tsx compile `<name>.ts` in the thread.
 * The thread keeps the process alive only while it has work to answer.
 */
import { Worker } from 'node:worker_threads';
import type { PoolThread } from '../../core/jobs/pool-thread';

export type { PoolThread };

/**
 * `name` beside this module ('parse-thread', 'search-thread', 'embed-thread'); `isWork(m)`: the
 * message will be answered; `isAnswer(r)`: the reply answers one (default: every reply does);
 * `data`: the thread's workerData (beside `entry`, which thread-boot.mjs reads).
 */
export function startPoolThread<M, R>(
  name: string,
  isWork: (message: M) => boolean,
  isAnswer: (reply: R) => boolean = () => true,
  data: Record<string, unknown> = {},
): PoolThread<M, R> {
  const here = import.meta.url;
  const fromSources = here.endsWith('.ts');
  const worker = fromSources
    ? new Worker(new URL('./thread-boot.mjs', here), {
        workerData: { ...data, entry: new URL(`./${name}.ts`, here).href },
      })
    : new Worker(new URL(`./${name}.mjs`, here), { workerData: data });
  // referenced only while it has work: an idle pool never keeps the process alive
  let pending = 0;
  worker.unref();
  return {
    post(message, transfer) {
      if (isWork(message) && pending++ === 0) worker.ref();
      worker.postMessage(message, transfer);
    },
    listen(onReply, onExit) {
      let exited = false;
      const exit = (reason: string) => {
        if (exited) return;
        exited = true;
        onExit(reason);
      };
      worker.on('message', (reply: R) => {
        if (isAnswer(reply) && --pending === 0) worker.unref();
        onReply(reply);
      });
      worker.on('error', (err) => exit(err instanceof Error ? err.message : String(err)));
      worker.on('exit', (code) => exit(`the thread exited with code ${code}`));
      // a 'message' listener references the worker again: a thread with nothing to answer must not hold the process
      if (pending === 0) worker.unref();
    },
    terminate: () => void worker.terminate(),
  };
}
