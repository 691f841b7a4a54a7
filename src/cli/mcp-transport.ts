/**
 * `quarry mcp`'s stdio transport: newline-delimited JSON-RPC, framed as the SDK's
 * StdioServerTransport frames it, with the limits a broken or hostile client cannot get past.
 * The SDK's transport closes the whole connection when a line outgrows its 10 MiB buffer (the
 * server then exits 0 and later requests are lost), overflows the stack on arguments nested
 * 50,000 deep, and drops a request whose id is 1.5 without a word. Here:
 *
 *   - a line over MAX_LINE_BYTES is never held: its bytes are skipped to the next newline and,
 *     when its id can be read at either end of it, the request is answered -32600; the server
 *     goes on reading the next line;
 *   - a line nested deeper than MAX_DEPTH arrays and objects is answered -32602 before it is parsed;
 *   - a request whose envelope is wrong (an id that is not a string or an integer, ...) is
 *     answered -32600 with what is wrong, when it has an id to answer;
 *   - `check` (mcp-requests.ts) answers a request's own faults (arguments null, a
 *     protocolVersion that is no version) -32602 with a clear message before the SDK sees it;
 *   - a line that is not JSON is dropped and said through onerror (stderr), as the SDK does.
 *
 * Everything else goes to the SDK's Protocol through onmessage, parsed with the SDK's schema.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** Arrays and objects inside one another, the envelope included (a tool's arguments need 4 or 5). */
export const MAX_DEPTH = 64;
/** Bytes kept from each end of an oversized line, to find its id. */
const EDGE_BYTES = 512;
const NEWLINE = 0x0a;

export interface RpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

/** A request as the SDK's schema parsed it. */
export interface ParsedRequest {
  method: string;
  id: RequestId;
  params?: Record<string, unknown>;
}

export interface LineTransportOptions {
  maxLineBytes?: number;
  maxDepth?: number;
  /** A request's own faults, answered before the SDK sees it; null lets it through. */
  check?: (request: ParsedRequest) => RpcErrorBody | null;
}

interface Oversized {
  head: Buffer;
  tail: Buffer;
  bytes: number;
}

const MIB = 1024 * 1024;
const sizeOf = (bytes: number) =>
  bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes.toLocaleString('en-US')} bytes`;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxLineBytes: number;
  private readonly maxDepth: number;
  private parts: Buffer[] = [];
  private size = 0;
  private oversized: Oversized | null = null;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: (s: string) => void,
    private readonly options: LineTransportOptions = {},
  ) {
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    this.maxDepth = options.maxDepth ?? MAX_DEPTH;
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    this.output(JSON.stringify(message) + '\n');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.parts = [];
    this.oversized = null;
    this.onclose?.();
  }

  private readonly onInputError = (err: Error) => this.onerror?.(err);

  private readonly onData = (chunk: Buffer | string) => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let from = 0;
    for (let nl = buf.indexOf(NEWLINE, from); nl !== -1 && !this.closed; nl = buf.indexOf(NEWLINE, from)) {
      this.take(buf.subarray(from, nl));
      this.endLine();
      from = nl + 1;
    }
    if (from < buf.length && !this.closed) this.take(buf.subarray(from));
  };

  /** A last line without its newline is read too. */
  private readonly onEnd = () => {
    if (this.size > 0 || this.oversized) this.endLine();
  };

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    const o = this.oversized;
    if (o) {
      o.bytes += piece.length;
      o.tail = lastBytes(Buffer.concat([o.tail, piece.subarray(-EDGE_BYTES)]));
      return;
    }
    if (this.size + piece.length <= this.maxLineBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    // over the limit: keep the two ends (for the id), never the line
    const all = Buffer.concat([...this.parts, piece]);
    this.oversized = {
      head: Buffer.from(all.subarray(0, EDGE_BYTES)),
      tail: lastBytes(all),
      bytes: all.length,
    };
    this.parts = [];
    this.size = 0;
  }

  private endLine(): void {
    const o = this.oversized;
    if (o) {
      this.oversized = null;
      const id = idAtEdges(o.head.toString('utf8'), o.tail.toString('utf8'));
      const size = `${o.bytes.toLocaleString('en-US')} bytes`;
      const limit = sizeOf(this.maxLineBytes);
      if (id === undefined)
        this.onerror?.(new Error(`dropped a line of ${size} (over the ${limit} limit) with no id to answer`));
      else
        this.answer(id, {
          code: ErrorCode.InvalidRequest,
          message: `Request too large: a line of ${size} (the limit is ${limit}); it was not read`,
        });
      return;
    }
    const line = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.readLine(line);
  }

  private readLine(bytes: Buffer): void {
    const text = bytes.toString('utf8').replace(/\r$/, '');
    if (!text.trim()) return;
    if (nestedDeeperThan(text, this.maxDepth)) {
      const message = `The request is nested too deep: more than ${this.maxDepth} levels of arrays and objects`;
      const id = idAtEdges(text.slice(0, EDGE_BYTES), text.slice(-EDGE_BYTES));
      if (id === undefined) this.onerror?.(new Error(`dropped a line: ${message}`));
      else this.answer(id, { code: ErrorCode.InvalidParams, message });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    this.dispatch(value);
  }

  private dispatch(value: unknown): void {
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const fault = envelopeFault(value);
      if (fault && fault.id !== undefined)
        this.answer(fault.id, {
          code: ErrorCode.InvalidRequest,
          message: `Invalid request: ${fault.message}`,
        });
      else
        this.onerror?.(
          new Error(`dropped a line that is not JSON-RPC 2.0: ${fault?.message ?? 'not a message'}`),
        );
      return;
    }
    const message = parsed.data as JSONRPCMessage;
    if (this.options.check && 'method' in message && 'id' in message) {
      const error = this.options.check(message as ParsedRequest);
      if (error) {
        this.answer(message.id as RequestId, error);
        return;
      }
    }
    this.onmessage?.(message);
  }

  private answer(id: RequestId, error: RpcErrorBody): void {
    void this.send({ jsonrpc: '2.0', id, error } as JSONRPCMessage);
  }
}

function lastBytes(buf: Buffer): Buffer {
  return Buffer.from(buf.subarray(Math.max(0, buf.length - EDGE_BYTES)));
}

/**
 * Whether `text` holds arrays and objects nested deeper than `max` (strings skipped), found
 * without parsing: JSON.parse takes seconds on a line nested millions deep, and writing such a
 * value back overflows the stack.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const ID_VALUE = String.raw`(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|"(?:[^"\\]|\\.)*")`;
/** `{"id": ...` or `{"jsonrpc":"2.0","id": ...` at the start of a line: the top level's id. */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*` + ID_VALUE);
/** `,"id": ...}` closing the line: the last `}` closes the top level, so this id is the top level's. */
const TAIL_ID = new RegExp(String.raw`,\s*"id"\s*:\s*` + ID_VALUE + String.raw`\s*\}\s*$`);

/** The id of a request whose middle cannot be read (too long, too deep), from either end of its line. */
export function idAtEdges(head: string, tail: string): RequestId | undefined {
  const m = HEAD_ID.exec(head) ?? TAIL_ID.exec(tail.replace(/\r$/, ''));
  if (!m) return undefined;
  try {
    const id = JSON.parse(m[1]) as unknown;
    return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
  } catch {
    return undefined;
  }
}

const describe = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v));

/**
 * What is wrong with a value the SDK's schema refused, and the id to answer it with (the id as
 * sent when it is a string or a number, even 1.5, so the client can match the answer).
 */
function envelopeFault(value: unknown): { id?: RequestId; message: string } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return {
      message: `a message is a JSON object, not ${Array.isArray(value) ? 'an array' : describe(value)}`,
    };
  const v = value as Record<string, unknown>;
  const rawId = v.id;
  const id =
    typeof rawId === 'string' || (typeof rawId === 'number' && Number.isFinite(rawId)) ? rawId : undefined;
  if (!('method' in v)) return { message: 'no method, result or error' };
  if (v.jsonrpc !== '2.0') return { id, message: `jsonrpc must be "2.0", not ${describe(v.jsonrpc)}` };
  if ('id' in v && !(typeof rawId === 'string' || Number.isSafeInteger(rawId)))
    return { id, message: `id must be a string or an integer, not ${describe(rawId)}` };
  if (typeof v.method !== 'string')
    return { id, message: `method must be a string, not ${describe(v.method)}` };
  if ('params' in v && (typeof v.params !== 'object' || v.params === null || Array.isArray(v.params)))
    return { id, message: `params must be an object, not ${describe(v.params)}` };
  return { id, message: 'not a JSON-RPC 2.0 request' };
}
