/**
 * The seed-004 reference engine, driven as its users drive it: `locus-mcp-server` from
 * `@sylphx/locus-linux-x64-gnu@0.6.2` (an optional dependency: linux x64 glibc only), spoken
 * to over MCP stdio with the SDK's own client.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const LOCUS_PACKAGE = '@sylphx/locus-linux-x64-gnu';

/** The server binary, or why it cannot run here. */
export function findLocus(): { bin: string } | { skip: string } {
  let dir: string;
  try {
    dir = path.dirname(createRequire(import.meta.url).resolve(`${LOCUS_PACKAGE}/package.json`));
  } catch {
    return {
      skip: `${LOCUS_PACKAGE} is not installed (it installs only on linux x64 with glibc; this is ${process.platform} ${process.arch})`,
    };
  }
  const bin = path.join(dir, 'locus-mcp-server');
  if (!fs.existsSync(bin)) return { skip: `${bin} is missing` };
  // with stdin closed at once the server stops, complaining that no initialize request came
  const probe = spawnSync(bin, [], { input: '', timeout: 10_000 });
  if (probe.error || !String(probe.stderr).includes('initialize')) {
    return {
      skip: `${bin} does not run here: ${probe.error?.message ?? String(probe.stderr).split('\n')[0]}`,
    };
  }
  return { bin };
}

export interface EngineHit {
  path: string;
  startLine: number;
  endLine: number;
  symbolName?: string;
  chunkType: string;
  score: number;
  matchedTerms: string[];
  scoreComponents?: unknown[];
  snippet: string | null;
}

export type EngineAnswer = { ok: true; results: EngineHit[] } | { ok: false; message: string };

export class LocusClient {
  private constructor(private readonly client: Client) {}

  static async start(bin: string): Promise<LocusClient> {
    const client = new Client({ name: 'quarry-parity', version: '1' });
    await client.connect(new StdioClientTransport({ command: bin, args: [], stderr: 'ignore' }));
    return new LocusClient(client);
  }

  async call(name: 'codebase_search' | 'find_related', args: Record<string, unknown>): Promise<EngineAnswer> {
    try {
      const r = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
      if (r.isError) return { ok: false, message: String((r.content as Array<{ text: string }>)[0]?.text) };
      return { ok: true, results: (r.structuredContent as { results: EngineHit[] }).results };
    } catch (err) {
      // its engine errors are JSON-RPC errors: "MCP error -32603: <message>"
      return { ok: false, message: (err as Error).message.replace(/^MCP error -?\d+: /, '') };
    }
  }

  /**
   * Several calls, at most `inFlight` at a time, the answers in the calls' order. The server runs
   * each call as two `locus-cli` processes (a refresh that rewrites `<root>/.coderag/` by a
   * rename, then the search), about 200 ms a call, and runs calls side by side: over an unchanged
   * root they give the answers one at a time gives (the rewritten index is the same).
   */
  async callAll(
    calls: ReadonlyArray<readonly ['codebase_search' | 'find_related', Record<string, unknown>]>,
    inFlight: number,
  ): Promise<EngineAnswer[]> {
    const out: EngineAnswer[] = new Array(calls.length);
    let next = 0;
    const lane = async () => {
      for (let i = next++; i < calls.length; i = next++) out[i] = await this.call(...calls[i]);
    };
    await Promise.all(Array.from({ length: Math.min(inFlight, calls.length) }, lane));
    return out;
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
