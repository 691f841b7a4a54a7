/**
 * `quarry mcp` run in this process (runCli with a PassThrough for stdin): raw lines written to it
 * and its answer lines read back, or the MCP SDK's own Client over the same two streams. No child
 * process, so a test pays for the engine's modules once per worker.
 */
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { runCli } from './main';

export interface Answer {
  jsonrpc: '2.0';
  id?: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

export interface InProcessMcp {
  stdin: PassThrough;
  /** Writes one line (a string as it is, anything else as JSON) and a newline. */
  write(message: unknown): void;
  /** Every answer line so far, parsed. */
  answers: Answer[];
  /** Resolves with the answer carrying `id` (already received or still to come). */
  answer(id: string | number): Promise<Answer>;
  /** Called with each answer line as it arrives (parsed). */
  onAnswer(listener: (a: Answer) => void): void;
  stderr(): string;
  /** Ends stdin; resolves with runCli's exit code once the server has answered what it holds. */
  end(): Promise<number>;
  exited: Promise<number>;
}

export function startMcp(root: string, extraArgs: string[] = ['--no-cache']): InProcessMcp {
  const stdin = new PassThrough();
  const answers: Answer[] = [];
  const listeners: Array<(a: Answer) => void> = [];
  let pending = '';
  let stderr = '';
  const exited = runCli(['mcp', '--root', root, ...extraArgs], {
    stdout: (s) => {
      pending += s;
      for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
        const line = pending.slice(0, i);
        pending = pending.slice(i + 1);
        if (!line.trim()) continue;
        const a = JSON.parse(line) as Answer;
        answers.push(a);
        for (const l of listeners) l(a);
      }
    },
    stderr: (s) => void (stderr += s),
    env: {},
    stdin,
  });
  return {
    stdin,
    write: (m) => void stdin.write((typeof m === 'string' ? m : JSON.stringify(m)) + '\n'),
    answers,
    answer: (id) =>
      new Promise((resolve) => {
        const found = answers.find((a) => a.id === id);
        if (found) return resolve(found);
        listeners.push((a) => {
          if (a.id === id) resolve(a);
        });
      }),
    onAnswer: (l) => void listeners.push(l),
    stderr: () => stderr,
    end: () => {
      stdin.end();
      return exited;
    },
    exited,
  };
}

export const initialize = (id: number | string, protocolVersion: unknown = LATEST_PROTOCOL_VERSION) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

export const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

export const toolCall = (id: number | string, name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** The SDK's Client transport over an in-process server's stdin and answer lines. */
class InProcessClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor(private readonly mcp: InProcessMcp) {}

  async start(): Promise<void> {
    this.mcp.onAnswer((a) => this.onmessage?.(a as JSONRPCMessage));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.mcp.write(message);
  }

  async close(): Promise<void> {
    this.onclose?.();
  }
}

/** A connected SDK Client (initialize done) talking to `mcp`. */
export async function sdkClient(mcp: InProcessMcp): Promise<Client> {
  const client = new Client({ name: 'quarry-test', version: '1.0.0' });
  await client.connect(new InProcessClientTransport(mcp));
  return client;
}
