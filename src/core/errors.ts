/**
 * One error type for the whole engine. Every error carries a literal `code`, a message
 * that names the thing and the value, and plain `data` that can cross a worker boundary.
 * Where a caller branches on more than the code, `data.reason` says why, from one union.
 */
import type { SkipReason } from './walk/policy';

export type ErrorCode =
  | 'InvalidArgument'
  | 'InvalidPattern'
  | 'InvalidGlob'
  | 'InvalidFilter'
  /** The search box's query language (core/query): data.column (1-based) and data.suggestion say where and what. */
  | 'InvalidQuery'
  | 'EngineError'
  | 'IndexVersionMismatch'
  | 'NotFound'
  | 'PathOutsideRoot'
  | 'Unreadable'
  | 'Cancelled'
  /** The engine worker was restarted (a job ignored cancel): calls that were pending are rejected with it. */
  | 'EngineRestarted'
  | 'AuthRequired'
  | 'CloneFailed'
  | 'NetworkError'
  | 'QuotaExceeded'
  | 'Internal';

/** Every reason an error carries: a skipped file's (binary, tooLarge...) or the engine's. */
export type ErrorReason =
  | SkipReason
  | 'permission' // File System Access read permission not granted
  | 'parse-timeout'
  | 'indexNotReady' // the code index is still being built
  | 'noRepository' // nothing is open
  | 'noSuchRoot' // a path or key that names no open root
  | 'notInLibrary' // a clone that was deleted from the library
  | 'noChunk' // no chunk contains the line (Related)
  | 'semanticUnavailable' // this build or host has no embedding model
  | 'laneLost'; // a search thread stopped before answering (the chunk is searched again)

export interface ErrorData {
  reason?: ErrorReason;
  /** The argument at fault (bad input). */
  field?: string;
  [key: string]: unknown;
}

export interface QuarryErrorJSON {
  code: ErrorCode;
  message: string;
  data?: ErrorData;
}

export class QuarryError extends Error {
  readonly code: ErrorCode;
  readonly data: ErrorData;

  constructor(code: ErrorCode, message: string, data: ErrorData = {}) {
    super(message);
    this.name = 'QuarryError';
    this.code = code;
    this.data = data;
  }

  get reason(): ErrorReason | undefined {
    return this.data.reason;
  }

  toJSON(): QuarryErrorJSON {
    return { code: this.code, message: this.message, data: this.data };
  }

  static fromJSON(json: QuarryErrorJSON): QuarryError {
    return new QuarryError(json.code, json.message, json.data ?? {});
  }
}

/** Bad input from the caller (shown inline, never logged as a bug). */
export function isUserError(err: unknown): boolean {
  return (
    err instanceof QuarryError &&
    (err.code === 'InvalidArgument' ||
      err.code === 'InvalidPattern' ||
      err.code === 'InvalidGlob' ||
      err.code === 'InvalidFilter' ||
      err.code === 'InvalidQuery' ||
      err.code === 'PathOutsideRoot')
  );
}

export function invalidArgument(field: string, message: string, value?: unknown): QuarryError {
  return new QuarryError('InvalidArgument', message, value === undefined ? { field } : { field, value });
}

export function toQuarryError(err: unknown): QuarryError {
  if (err instanceof QuarryError) return err;
  if (err instanceof Error && err.name === 'AbortError')
    return new QuarryError('Cancelled', 'The operation was cancelled');
  const message = err instanceof Error ? err.message : String(err);
  return new QuarryError('Internal', message);
}
