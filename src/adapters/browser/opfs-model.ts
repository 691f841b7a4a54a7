/**
 * A model the user brings to the app: the files of a folder in the transformers.js layout (picked
 * with the directory picker or an <input webkitdirectory>), copied into the origin-private file
 * system (OPFS) under quarry-embed-model/, with quarry-model.json written last (a copy that
 * stopped half way has none, and is no model). From then on the embedding worker loads it instead
 * of the build's model (embed.worker.ts), in every tab, after a reload too, until it is removed.
 * Only the files the loader reads are copied (core/semantic/onnx-pick.ts): the JSON files and one
 * ONNX export (the int8 one when there is one). The main thread writes (createWritable), the
 * embedding worker reads; nothing is fetched.
 */
import { QuarryError } from '../../core/errors';
import {
  LAYOUT_JSON_FILES,
  onnxFileCandidates,
  pickLayoutFiles,
  poolingConfigPath,
} from '../../core/semantic/onnx-pick';
import type { OnnxModelFiles } from '../../core/semantic/port';

export const USER_MODEL_DIR = 'quarry-embed-model';
const MANIFEST = 'quarry-model.json';

/** The user's model as its manifest describes it. */
export interface UserModelInfo {
  /** The picked folder's name. */
  name: string;
  onnxFile: string;
  /** The files copied (paths in the layout) and their total size. */
  files: string[];
  bytes: number;
  savedAt: number;
}

/** A picked folder: its name and its files by their path inside it ('onnx/model.onnx'). */
export interface PickedFolder {
  name: string;
  files: Map<string, Blob>;
}

export async function opfsRoot(): Promise<FileSystemDirectoryHandle | null> {
  const storage = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  if (!storage || typeof storage.getDirectory !== 'function') return null;
  try {
    return await storage.getDirectory();
  } catch {
    return null;
  }
}

/** The handle of a file at `path` under `dir` (made, with its folders, when `create`), or null. */
async function fileAt(
  dir: FileSystemDirectoryHandle,
  path: string,
  create = false,
): Promise<FileSystemFileHandle | null> {
  const parts = path.split('/');
  const name = parts.pop()!;
  try {
    let d = dir;
    for (const part of parts) d = await d.getDirectoryHandle(part, { create });
    return await d.getFileHandle(name, { create });
  } catch (err) {
    if (
      !create &&
      err instanceof DOMException &&
      (err.name === 'NotFoundError' || err.name === 'TypeMismatchError')
    )
      return null;
    throw err;
  }
}

/** A blob's bytes, read in pieces with progress after each. */
export async function readBlob(
  blob: Blob,
  onProgress?: (loaded: number, total: number) => void,
): Promise<Uint8Array> {
  if (!onProgress) return new Uint8Array(await blob.arrayBuffer());
  const out = new Uint8Array(blob.size);
  const reader = blob.stream().getReader();
  let at = 0;
  onProgress(0, blob.size);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    out.set(value.subarray(0, Math.min(value.length, out.length - at)), at);
    at += value.length;
    onProgress(Math.min(at, blob.size), blob.size);
  }
  return out;
}

function isInfo(v: unknown): v is UserModelInfo {
  const m = v as UserModelInfo;
  return (
    !!m &&
    typeof m.name === 'string' &&
    typeof m.onnxFile === 'string' &&
    typeof m.bytes === 'number' &&
    typeof m.savedAt === 'number' &&
    Array.isArray(m.files) &&
    m.files.every((f) => typeof f === 'string') &&
    m.files.includes(m.onnxFile)
  );
}

/** The user's model in this browser, or null (none, a copy that did not finish, or no OPFS here). */
export async function userModelInfo(): Promise<UserModelInfo | null> {
  const root = await opfsRoot();
  if (!root) return null;
  try {
    const dir = await root.getDirectoryHandle(USER_MODEL_DIR);
    const manifest = await fileAt(dir, MANIFEST);
    if (!manifest) return null;
    const info: unknown = JSON.parse(await (await manifest.getFile()).text());
    return isInfo(info) ? info : null;
  } catch {
    return null;
  }
}

/** The user's model's files as the ONNX loader reads them (from OPFS; a file not copied is absent). */
export function userOnnxFiles(info: UserModelInfo): OnnxModelFiles {
  return {
    name: info.name,
    async read(path, onProgress) {
      if (!info.files.includes(path)) return null;
      const root = await opfsRoot();
      const dir = root ? await root.getDirectoryHandle(USER_MODEL_DIR).catch(() => null) : null;
      const handle = dir ? await fileAt(dir, path) : null;
      if (!handle)
        throw new QuarryError(
          'NotFound',
          `Your model's ${path} is no longer in this browser's storage: pick the folder again`,
          {
            file: path,
          },
        );
      return readBlob(await handle.getFile(), onProgress);
    },
  };
}

/** Removes the user's model: the build's model is used from the next load on. */
export async function removeUserModel(): Promise<void> {
  const root = await opfsRoot();
  await root?.removeEntry(USER_MODEL_DIR, { recursive: true }).catch(() => undefined);
}

/** The files of a folder picked with <input webkitdirectory>: paths without the folder's own name. */
export function folderFromFileList(list: ArrayLike<File>): PickedFolder {
  const files = new Map<string, Blob>();
  let name = '';
  for (let i = 0; i < list.length; i++) {
    const f = list[i];
    const rel = (f.webkitRelativePath || f.name).split('/');
    // every path starts with the picked folder's name
    const top = rel.length > 1 ? rel.shift()! : '';
    name ||= top;
    files.set(rel.join('/'), f);
  }
  return { name: name || 'model', files };
}

/** The layout's files of a folder picked with the directory picker (only those the loader may read are looked up). */
export async function folderFromHandle(handle: FileSystemDirectoryHandle): Promise<PickedFolder> {
  const files = new Map<string, Blob>();
  const get = async (path: string) => {
    if (files.has(path)) return;
    const h = await fileAt(handle, path).catch(() => null);
    if (h) files.set(path, await h.getFile());
  };
  for (const path of [...LAYOUT_JSON_FILES, ...onnxFileCandidates('quantized')]) await get(path);
  const modules = files.get('modules.json');
  if (modules) {
    const pooling = poolingConfigPath(await parseModules(modules, handle.name));
    await get(pooling);
  }
  await get('1_Pooling/config.json');
  return { name: handle.name, files };
}

async function parseModules(blob: Blob, name: string): Promise<unknown> {
  try {
    return JSON.parse(await blob.text());
  } catch {
    throw new QuarryError(
      'InvalidArgument',
      `The folder “${name}” has a modules.json that is not valid JSON`,
      {
        field: 'model',
        value: 'modules.json',
      },
    );
  }
}

async function writeFile(
  dir: FileSystemDirectoryHandle,
  path: string,
  blob: Blob,
  onChunk: (n: number) => void,
): Promise<void> {
  const handle = (await fileAt(dir, path, true))!;
  const writable = await handle.createWritable();
  try {
    const reader = blob.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      await writable.write(value);
      onChunk(value.length);
    }
    await writable.close();
  } catch (err) {
    await writable.abort().catch(() => undefined);
    throw err;
  }
}

function saveFailure(err: unknown): QuarryError {
  if (err instanceof QuarryError) return err;
  if (err instanceof DOMException && err.name === 'QuotaExceededError')
    return new QuarryError('QuotaExceeded', "The model does not fit in this browser's storage", {});
  const detail = err instanceof Error ? err.message : String(err);
  return new QuarryError(
    'Internal',
    `The model could not be copied into this browser's storage (${detail})`,
    {},
  );
}

/**
 * Copies the model's files of a picked folder into OPFS (replacing the user's model before it),
 * the manifest last; an InvalidArgument when the folder is no model (nothing is copied then).
 */
export async function saveUserModel(
  folder: PickedFolder,
  onProgress?: (loaded: number, total: number) => void,
): Promise<UserModelInfo> {
  const modules = folder.files.get('modules.json');
  const choice = pickLayoutFiles(
    (p) => folder.files.has(p),
    modules ? await parseModules(modules, folder.name) : undefined,
    { prefer: 'quantized', what: `The folder “${folder.name}”` },
  );
  const root = await opfsRoot();
  const writable =
    typeof FileSystemFileHandle !== 'undefined' && 'createWritable' in FileSystemFileHandle.prototype;
  if (!root || !writable)
    throw new QuarryError(
      'Internal',
      'This browser cannot keep a model in its private storage (no writable OPFS)',
      {},
    );
  const total = choice.files.reduce((a, p) => a + folder.files.get(p)!.size, 0);
  const info: UserModelInfo = {
    name: folder.name,
    onnxFile: choice.onnx,
    files: choice.files,
    bytes: total,
    savedAt: Date.now(),
  };
  try {
    await root.removeEntry(USER_MODEL_DIR, { recursive: true }).catch(() => undefined);
    const dir = await root.getDirectoryHandle(USER_MODEL_DIR, { create: true });
    let loaded = 0;
    onProgress?.(0, total);
    for (const p of choice.files)
      await writeFile(dir, p, folder.files.get(p)!, (n) => {
        loaded += n;
        onProgress?.(loaded, total);
      });
    await writeFile(dir, MANIFEST, new Blob([JSON.stringify(info)]), () => undefined);
    return info;
  } catch (err) {
    await removeUserModel();
    throw saveFailure(err);
  }
}
