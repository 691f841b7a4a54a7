/**
 * `quarry mcp --root DIR`: the tools over the Model Context Protocol's stdio transport, on the
 * official SDK's low-level `Server` (initialize and version negotiation, ping, cancellation and
 * concurrent requests are the SDK's; the stdio framing is ours, below). tools/list is the tools
 * layer's list of contracts (describeTools: TOOLS); tools/call runs callTool over the same list with the
 * request's AbortSignal, so a notifications/cancelled from the client stops the work. The app's
 * view tools (VIEW_TOOLS), which `quarry call` also serves, are not offered here: they answer
 * in the views' shapes what ranked_search, related_code, semantic_code_search and
 * feature_status answer for programs, and a model choosing among near-twins chooses worse.
 *
 * Errors, as seed 004 asks ("parser failures are MCP invalid params"):
 *   - an unknown tool or bad tool input (a user error: InvalidArgument, InvalidFilter, ...) is a
 *     JSON-RPC error -32602 whose message is exactly the engine's;
 *   - any other failure (e.g. "No related chunks found for that location") is a tool result with
 *     isError: true and the message as its text, so the model reads it;
 *   - a cancelled call gets no answer at all (the SDK drops it).
 *
 * Framing is mcp-transport.ts's (limits on a line's size and nesting, clear answers to broken
 * envelopes) and mcp-requests.ts checks a request's own params first. Heavy calls (every tool
 * but read_file and list_directory) run HEAVY_SLOTS at a time in the order they came
 * (turns.ts FairQueue), and main.ts hands this server sources that let the event loop run
 * between reads, so a ping answers while they work.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { isUserError, toQuarryError } from '../core/errors';
import { callTool, describeTools } from '../core/tools';
import type { ToolContext } from '../core/tools/types';
import { PRODUCT, PRODUCT_VERSION } from '../core/version';
import { checkRequest } from './mcp-requests';
import { LineTransport } from './mcp-transport';
import { FairQueue } from './turns';

/** Tools that answer from one file or one directory: never queued behind the heavy ones. */
const LIGHT_TOOLS = new Set(['read_file', 'list_directory']);
/** Heavy calls running at once (a walk each on this thread; the rest wait their turn, in order). */
export const HEAVY_SLOTS = 2;

/**
 * A JSON-RPC error the SDK answers with as it is: its numeric `code`, its `message` word for
 * word and its `data`. (The SDK's McpError would prefix the message with "MCP error -32602: ".)
 */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'JsonRpcError';
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A tool's answer as MCP content: the text (strings as they are, anything else as JSON), and the object itself when it is one. */
export function toCallToolResult(result: unknown): CallToolResult {
  const text = typeof result === 'string' ? result : JSON.stringify(result);
  return {
    content: [{ type: 'text', text }],
    ...(isPlainObject(result) ? { structuredContent: result } : {}),
    isError: false,
  };
}

/** One tools/call: the engine's answer, an isError result, or a thrown -32602 for bad input. */
export async function runToolCall(
  ctx: ToolContext,
  name: string,
  args: unknown,
  signal: AbortSignal,
): Promise<CallToolResult> {
  try {
    return toCallToolResult(await callTool(name, args, { ...ctx, signal }));
  } catch (err) {
    const qe = toQuarryError(err);
    // an unknown tool name is an InvalidArgument naming the tool (findTool), so it lands here too
    if (isUserError(qe))
      throw new JsonRpcError(ErrorCode.InvalidParams, qe.message, { code: qe.code, ...qe.data });
    // cancelled: the SDK sends nothing for an aborted request, whatever is returned
    if (signal.aborted) throw qe;
    return { content: [{ type: 'text', text: qe.message }], isError: true };
  }
}

/**
 * The MCP server over a tool context, not yet connected. `idle()` resolves once every
 * tools/call that has started has settled (for a clean exit when stdin ends).
 */
export function createMcpServer(
  ctx: ToolContext,
  queue: FairQueue = new FairQueue(HEAVY_SLOTS),
): { server: Server; idle: () => Promise<void> } {
  // The low-level Server, which the SDK's JSDoc marks deprecated in favour of McpServer "except for
  // advanced use cases": McpServer wants zod schemas, and the tools layer owns each tool's JSON Schema.
  const server = new Server(
    { name: PRODUCT, version: PRODUCT_VERSION },
    { capabilities: { tools: { listChanged: false } } },
  );
  const inflight = new Set<Promise<unknown>>();

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: describeTools() }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    // The SDK starts each request's handler as it arrives; heavy calls then wait their turn.
    const { name, arguments: args = {} } = request.params;
    const run = () => runToolCall(ctx, name, args, extra.signal);
    const call = LIGHT_TOOLS.has(name) ? run() : queue.run(run, extra.signal);
    inflight.add(call);
    const forget = () => void inflight.delete(call);
    call.then(forget, forget);
    return call;
  });

  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const idle = async () => {
    await turn(); // requests read in the last chunk reach their handlers a few microtasks later
    while (inflight.size) await Promise.allSettled([...inflight]);
    await turn(); // and their answers are written a few microtasks after that
  };
  return { server, idle };
}

/**
 * Serve on `input` / `output` until the input ends; calls still running then are answered
 * before this resolves (so `printf '...' | quarry mcp` gets every answer). Requests are handled
 * concurrently: a ping or a quick call answers while a long one runs.
 */
export async function serveMcp(
  ctx: ToolContext,
  input: NodeJS.ReadableStream,
  output: (s: string) => void,
  log: (s: string) => void = (s) => void process.stderr.write(s),
): Promise<void> {
  const { server, idle } = createMcpServer(ctx);
  // A line that is not JSON-RPC is dropped by the transport (and said on stderr); the next one is read as usual.
  server.onerror = (err) => log(`quarry mcp: ${err.message.slice(0, 500)}\n`);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  const ended = new Promise<void>((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
  });
  await server.connect(new LineTransport(input, output, { check: checkRequest }));
  await Promise.race([ended, closed]);
  await idle();
  await server.close();
}
