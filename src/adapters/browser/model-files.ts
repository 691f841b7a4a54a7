/**
 * The USE-lite files in the browser: model.json, the weight shards and vocab.json are the app's
 * own assets (emitted under assets/model/ by the `quarry-use-lite` Vite plugin, which gives
 * their URLs and sizes), fetched from the same origin, never from a remote host. The service
 * worker keeps them once fetched (cache first), so after the first semantic search the model
 * loads offline. The tfjs wasm binaries are the app's own assets too (`?url`).
 */
import type { UseLiteFiles } from '../../core/semantic/port';
import assets from 'virtual:quarry-use-lite';
import wasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';

/** The tfjs wasm binaries by file name (loadUseLite's wasm location). */
export const useLiteWasmUrls: Record<string, string> = {
  'tfjs-backend-wasm.wasm': wasmUrl,
  'tfjs-backend-wasm-simd.wasm': wasmSimdUrl,
  'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimdUrl,
};

const PREFIX = 'The semantic search model could not be loaded';

function failure(name: string, why: string, cause?: unknown): Error {
  return new Error(`${PREFIX}: ${name}: ${why}`, cause === undefined ? undefined : { cause });
}

function networkFailure(name: string, err: unknown): Error {
  const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
  const detail = err instanceof Error ? err.message : String(err);
  return failure(
    name,
    offline ? 'the browser is offline and the model is not cached yet' : `network error (${detail})`,
    err,
  );
}

async function request(name: string, url: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (err) {
    throw networkFailure(name, err);
  }
  if (!res.ok) throw failure(name, `HTTP ${res.status}${res.statusText ? ' ' + res.statusText : ''}`);
  return res;
}

async function json(name: string, url: string): Promise<unknown> {
  const res = await request(name, url);
  let text: string;
  try {
    text = await res.text();
  } catch (err) {
    throw networkFailure(name, err);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw failure(name, 'not valid JSON', err);
  }
}

/** Reads one shard into out at `at` (exactly `bytes` of it), reporting each chunk. */
async function readInto(
  name: string,
  res: Response,
  out: Uint8Array,
  at: number,
  bytes: number,
  onChunk: (n: number) => void,
): Promise<void> {
  const wrongSize = () => failure(name, `not the expected size (${bytes} bytes)`);
  if (!res.body) {
    let data: Uint8Array;
    try {
      data = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw networkFailure(name, err);
    }
    if (data.length !== bytes) throw wrongSize();
    out.set(data, at);
    onChunk(data.length);
    return;
  }
  const reader = res.body.getReader();
  let read = 0;
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw networkFailure(name, err);
      }
      if (chunk.done) break;
      if (read + chunk.value.length > bytes) throw wrongSize();
      out.set(chunk.value, at + read);
      read += chunk.value.length;
      onChunk(chunk.value.length);
    }
  } finally {
    reader.releaseLock();
  }
  if (read !== bytes) throw wrongSize();
}

export const browserUseLiteFiles: UseLiteFiles = {
  modelJson: () => json('model.json', assets.modelJson.url),
  vocabulary: () => json('vocab.json', assets.vocabulary.url),
  async weights(paths, onProgress) {
    const shards = paths.map((p) => {
      const shard = Object.hasOwn(assets.shards, p) ? assets.shards[p] : undefined;
      if (!shard) throw new Error(`${PREFIX}: model.json names a weight file this build does not have: ${p}`);
      return { name: p, ...shard };
    });
    const total = shards.reduce((a, s) => a + s.bytes, 0);
    const out = new Uint8Array(total);
    let loaded = 0;
    onProgress?.(0, total);
    // one after another, in manifest order: the bytes go straight to their place in the concatenation
    for (const shard of shards) {
      const res = await request(shard.name, shard.url);
      await readInto(shard.name, res, out, loaded, shard.bytes, (n) => {
        loaded += n;
        onProgress?.(loaded, total);
      });
    }
    return out.buffer;
  },
};
