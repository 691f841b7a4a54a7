/**
 * How the worker reads a snapshot folder (files from `<input webkitdirectory>` or a drop): the
 * File objects stay on the main thread, and the worker pulls the bytes of the files it admits
 * through a PullFiles callback, a directory's worth at a time (adapters/browser/files.ts says
 * why). Only plain data crosses: paths, sizes and ArrayBuffers.
 */

/** One file's answer to a pull: its bytes, or only its size when over the limit, or an error. */
export interface PulledFile {
  path: string;
  /** Bytes read (absent when `size` > the requested maxBytes, or on error). */
  bytes?: ArrayBuffer;
  size: number;
  error?: string;
}

/** Main-thread callback the worker calls (over Comlink) to get file bytes. */
export type PullFiles = (paths: string[], maxBytes: number) => Promise<PulledFile[]>;
