/**
 * One error type for the whole engine. Every error carries a literal `code`, a message
 * that names the thing and the value, and plain `data` that can cross a worker boundary.
 */
export type ErrorCode =
  | 'InvalidArgument'
  | 'InvalidPattern'
  | 'InvalidGlob'
  | 'InvalidFilter'
  | 'EngineError'
  | 'IndexVersionMismatch'
  | 'NotFound'
  | 'PathOutsideRoot'
  | 'Unreadable'
  | 'Cancelled'
  | 'EngineRestarted'
  | 'PermissionDenied'
  | 'AuthRequired'
  | 'CloneFailed'
  | 'NetworkError'
  | 'QuotaExceeded'
  | 'Internal';

export interface QuarryErrorJSON {
  code: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
}

export class QuarryError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'QuarryError';
    this.code = code;
    this.data = data;
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
      err.code === 'PathOutsideRoot')
  );
}

export function invalidArgument(field: string, message: string, value?: unknown): QuarryError {
  return new QuarryError('InvalidArgument', message, value === undefined ? { field } : { field, value });
}

export function toQuarryError(err: unknown): QuarryError {
  if (err instanceof QuarryError) return err;
  if (err instanceof Error && err.name === 'AbortError') return new QuarryError('Cancelled', 'The operation was cancelled');
  const message = err instanceof Error ? err.message : String(err);
  return new QuarryError('Internal', message);
}
