/**
 * A request's own faults, answered -32602 with a message a person reads, before the SDK sees
 * the request: the SDK answers `arguments: null` with -32603 and its schema's error dump, and
 * takes a protocolVersion that is no version at all (`"banana"`) without a word. An unknown but
 * well-formed version (`"1999-01-01"`) is still negotiated the SDK's way (it answers with one it
 * implements), as the specification asks.
 */
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { ParsedRequest, RpcErrorBody } from './mcp-transport';

/** Versions are dates (2025-06-18); drafts are named DRAFT-... */
const VERSION = /^(\d{4}-\d{2}-\d{2}|DRAFT-[\w.-]+)$/;

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

const shown = (value: unknown) =>
  value === undefined ? 'missing' : (JSON.stringify(value) ?? String(value));

const invalidParams = (message: string): RpcErrorBody => ({ code: ErrorCode.InvalidParams, message });

export function checkRequest(request: ParsedRequest): RpcErrorBody | null {
  const params = request.params ?? {};
  if (request.method === 'initialize') {
    const v = params.protocolVersion;
    if (typeof v !== 'string' || !(VERSION.test(v) || SUPPORTED_PROTOCOL_VERSIONS.includes(v)))
      return invalidParams(
        `protocolVersion must be a string naming a version such as "2025-06-18", not ${shown(v)}`,
      );
  }
  if (request.method === 'tools/call') {
    if (typeof params.name !== 'string' || params.name === '')
      return invalidParams('tools/call needs the tool name in params.name');
    const args = params.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
      return invalidParams(`tools/call arguments must be an object, not ${kind(args)}`);
  }
  return null;
}
