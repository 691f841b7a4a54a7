/**
 * The ONNX model a build was given (QUARRY_EMBED_MODEL=DIR npm run build: scripts/vite-embed-model.ts
 * copies its files under assets/embed-model/ with hashed names): its files fetched from the app's
 * own origin, never from a remote host, with progress. The service worker keeps them once fetched
 * (cache first; never precached), so after the first semantic search the model loads offline.
 * Null when the build has none: USE lite is the model then.
 */
import deployed from 'virtual:quarry-embed-model';
import type { OnnxModelFiles } from '../../core/semantic/port';

const PREFIX = 'The semantic search model could not be loaded';

export interface DeployedModel {
  name: string;
  onnxFile: string;
  bytes: number;
  files: OnnxModelFiles;
}

function failure(name: string, why: string): Error {
  return new Error(`${PREFIX}: ${name}: ${why}`);
}

async function fetchBytes(
  path: string,
  entry: { url: string; bytes: number },
  onProgress?: (loaded: number, total: number) => void,
): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(entry.url);
  } catch (err) {
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw failure(
      path,
      offline
        ? 'the browser is offline and the model is not cached yet'
        : `network error (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  if (!res.ok) throw failure(path, `HTTP ${res.status}${res.statusText ? ' ' + res.statusText : ''}`);
  const out = new Uint8Array(entry.bytes);
  const wrongSize = () => failure(path, `not the expected size (${entry.bytes} bytes)`);
  if (!res.body) {
    const all = new Uint8Array(await res.arrayBuffer());
    if (all.length !== entry.bytes) throw wrongSize();
    onProgress?.(all.length, entry.bytes);
    return all;
  }
  const reader = res.body.getReader();
  let at = 0;
  onProgress?.(0, entry.bytes);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at + value.length > entry.bytes) throw wrongSize();
    out.set(value, at);
    at += value.length;
    onProgress?.(at, entry.bytes);
  }
  if (at !== entry.bytes) throw wrongSize();
  return out;
}

/** The build's ONNX model, or null (the build has USE lite only). */
export function deployedModel(): DeployedModel | null {
  if (!deployed) return null;
  const { name, onnxFile, bytes, files } = deployed;
  return {
    name,
    onnxFile,
    bytes,
    files: {
      name,
      read: (path, onProgress) =>
        Object.hasOwn(files, path) ? fetchBytes(path, files[path], onProgress) : Promise.resolve(null),
    },
  };
}
