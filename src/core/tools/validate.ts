/** Argument checks shared by the tool contracts: each failure names the field. */
import { QuarryError } from '../errors';
import { MAX_QUERY_CHARS, queryTooLongMessage } from '../limits';

export type Args = Record<string, unknown>;

export function ensureObject(args: unknown): Args {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw new QuarryError('InvalidArgument', 'arguments must be a JSON object', { field: '(arguments)' });
  }
  return args as Args;
}

/**
 * `additionalProperties: false`, enforced: a field that is not in `allowed` is refused, naming
 * it and the fields there are. Runs before a tool reads anything (callTool), so a misspelled
 * field never falls back silently to a default. Arguments that are not an object pass through
 * here untouched: the tool's own ensureObject gives them their usual error.
 */
export function rejectUnknownFields(args: unknown, allowed: readonly string[]): void {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return;
  for (const field of Object.keys(args)) {
    if (!allowed.includes(field)) {
      throw new QuarryError(
        'InvalidArgument',
        `Unknown field: ${field} (allowed: ${allowed.length ? allowed.join(', ') : 'none'})`,
        { field },
      );
    }
  }
}

export function requiredString(args: Args, field: string, opts: { allowEmpty?: boolean } = {}): string {
  const v = args[field];
  if (v === undefined || v === null)
    throw new QuarryError('InvalidArgument', `Missing required field: ${field}`, { field });
  if (typeof v !== 'string')
    throw new QuarryError('InvalidArgument', `${field} must be a string`, { field, value: v });
  if (!opts.allowEmpty && v.trim() === '')
    throw new QuarryError('InvalidArgument', `${field} must not be empty`, { field });
  return v;
}

export function optionalString(args: Args, field: string): string | undefined {
  const v = args[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string')
    throw new QuarryError('InvalidArgument', `${field} must be a string`, { field, value: v });
  return v;
}

export function optionalBoolean(args: Args, field: string, fallback: boolean): boolean {
  const v = args[field];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean')
    throw new QuarryError('InvalidArgument', `${field} must be a boolean`, { field, value: v });
  return v;
}

export function optionalInt(
  args: Args,
  field: string,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const v = args[field];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
    throw new QuarryError('InvalidArgument', `${field} must be an integer ${range}`, { field, value: v });
  }
  return v;
}

export function requiredInt(args: Args, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const v = args[field];
  if (v === undefined || v === null)
    throw new QuarryError('InvalidArgument', `Missing required field: ${field}`, { field });
  return optionalInt(args, field, 0, min, max);
}

export function optionalEnum<T extends string>(
  args: Args,
  field: string,
  values: readonly T[],
  fallback: T,
): T {
  const v = args[field];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' || !values.includes(v as T)) {
    throw new QuarryError(
      'InvalidArgument',
      `${field} must be one of ${values.map((x) => `"${x}"`).join(', ')}`,
      { field, value: v },
    );
  }
  return v as T;
}

/** First present key among aliases (seed 002: path | corpus_path, pattern | query | search). */
export function firstPresent(args: Args, fields: string[]): { field: string; value: unknown } | undefined {
  for (const f of fields) {
    const v = args[f];
    if (v !== undefined && v !== null && v !== '') return { field: f, value: v };
  }
  return undefined;
}

/**
 * No string argument (a query, a pattern, a glob, a path) over MAX_QUERY_CHARS, in arrays too:
 * refused before any work, so a pasted megabyte never reaches a parser or a regex compiler.
 */
export function rejectOverlongStrings(args: unknown): void {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return;
  for (const [field, value] of Object.entries(args)) {
    const strings =
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value.filter((v): v is string => typeof v === 'string')
          : [];
    for (const v of strings) {
      if (v.length > MAX_QUERY_CHARS)
        throw new QuarryError('InvalidArgument', queryTooLongMessage(field, v.length), {
          field,
          length: v.length,
          limit: MAX_QUERY_CHARS,
        });
    }
  }
}
