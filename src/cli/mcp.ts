/**
 * `quarry mcp --root DIR`: the tools over the Model Context Protocol's stdio transport
 * (JSON-RPC 2.0, one message per line). initialize, tools/list, tools/call and ping.
 * Bad tool input is a JSON-RPC "invalid params" error (-32602), as seed 004 requires; other
 * engine errors (e.g. "No related chunks found for that location") are JSON-RPC errors
 * (-32603) carrying the engine's code in `data`.
 */
import { isUserError, toQuarryError } from '../core/errors';
import { callTool, describeTools } from '../core/tools';
import type { ToolContext } from '../core/tools/types';
import { PRODUCT, PRODUCT_VERSION } from '../core/version';

export const MCP_PROTOCOL_VERSION = '2025-06-18';

interface JsonRpcRequest {
  jsonrpc: '2.0';
  id?: number | string | null;
  method: string;
  params?: Record<string, unknown>;
}

type Send = (msg: unknown) => void;

export function createMcpHandler(ctx: ToolContext, send: Send) {
  const reply = (id: JsonRpcRequest['id'], result: unknown) => send({ jsonrpc: '2.0', id, result });
  const fail = (id: JsonRpcRequest['id'], code: number, message: string, data?: unknown) =>
    send({ jsonrpc: '2.0', id: id ?? null, error: data === undefined ? { code, message } : { code, message, data } });

  return async function handle(line: string): Promise<void> {
    let msg: JsonRpcRequest;
    try {
      msg = JSON.parse(line);
    } catch {
      fail(null, -32700, 'Parse error');
      return;
    }
    if (!msg || msg.jsonrpc !== '2.0' || typeof msg.method !== 'string') {
      fail(msg?.id, -32600, 'Invalid Request');
      return;
    }
    const isNotification = msg.id === undefined;
    switch (msg.method) {
      case 'initialize':
        reply(msg.id, {
          protocolVersion: typeof msg.params?.protocolVersion === 'string' ? msg.params.protocolVersion : MCP_PROTOCOL_VERSION,
          capabilities: { tools: { listChanged: false } },
          serverInfo: { name: PRODUCT, version: PRODUCT_VERSION },
        });
        return;
      case 'notifications/initialized':
      case 'notifications/cancelled':
        return;
      case 'ping':
        reply(msg.id, {});
        return;
      case 'tools/list':
        reply(msg.id, { tools: describeTools() });
        return;
      case 'tools/call': {
        const name = msg.params?.name;
        if (typeof name !== 'string') {
          fail(msg.id, -32602, 'tools/call needs params.name');
          return;
        }
        try {
          const result = await callTool(name, msg.params?.arguments ?? {}, ctx);
          const text = typeof result === 'string' ? result : JSON.stringify(result);
          reply(msg.id, {
            content: [{ type: 'text', text }],
            ...(typeof result === 'object' && result !== null && !Array.isArray(result) ? { structuredContent: result } : {}),
            isError: false,
          });
        } catch (err) {
          const qe = toQuarryError(err);
          fail(msg.id, isUserError(qe) ? -32602 : -32603, qe.message, { code: qe.code, ...qe.data });
        }
        return;
      }
      default:
        if (!isNotification) fail(msg.id, -32601, `Method not found: ${msg.method}`);
    }
  };
}

/** Serve on stdin/stdout until stdin closes; requests are answered in arrival order. */
export async function serveMcp(ctx: ToolContext, input: NodeJS.ReadableStream, output: (s: string) => void): Promise<void> {
  const handle = createMcpHandler(ctx, (m) => output(JSON.stringify(m) + '\n'));
  let buffer = '';
  let chain = Promise.resolve();
  await new Promise<void>((resolve) => {
    input.setEncoding?.('utf8');
    input.on('data', (chunk: string) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) chain = chain.then(() => handle(line));
      }
    });
    input.on('end', () => {
      chain.then(() => resolve());
    });
  });
}
