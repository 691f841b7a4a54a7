/** The tool registry: every tool contract Quarry answers, in one list. */
import { QuarryError } from '../errors';
import { codebaseSearch } from './codebase-search';
import { codeSearch } from './code-search';
import { exploreTool } from './explore';
import { findRelated } from './find-related';
import { findComponentsTool } from './find-components';
import { getRoutes } from './get-routes';
import { featureStatusTool } from './feature-status';
import { listDirectory } from './list-directory';
import { rankedSearch } from './ranked-search';
import { readFile } from './read-file';
import { relatedCode } from './related-code';
import { searchCorpus } from './search-corpus';
import { searchFiles } from './search-files';
import { semanticCodeSearch } from './semantic-code-search';
import type { Tool, ToolContext } from './types';
import { rejectOverlongStrings, rejectUnknownFields } from './validate';

export const TOOLS: Tool[] = [
  codeSearch,
  semanticCodeSearch,
  readFile,
  listDirectory,
  searchFiles,
  searchCorpus,
  codebaseSearch,
  findRelated,
  rankedSearch,
  relatedCode,
  findComponentsTool,
  getRoutes,
  featureStatusTool,
  exploreTool,
];

export function findTool(name: string): Tool {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) {
    throw new QuarryError(
      'InvalidArgument',
      `Unknown tool "${name}". Tools: ${TOOLS.map((t) => t.name).join(', ')}`,
      {
        field: 'tool',
        value: name,
      },
    );
  }
  return tool;
}

export function describeTools() {
  return TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/** The fields a tool accepts: its schema's properties, aliases included (see JsonSchema). */
export function toolFields(tool: Tool): string[] {
  return Object.keys(tool.inputSchema.properties);
}

/**
 * The one entry every host calls a tool through (the CLI's `quarry call`, the MCP server, the
 * app's worker): an unknown field is refused first, before the tool's own checks and before
 * any index refresh (seed 004: parser failures come before the refresh); so is a string over
 * the length cap (src/core/limits.ts).
 */
export async function callTool(name: string, args: unknown, ctx: ToolContext): Promise<unknown> {
  const tool = findTool(name);
  rejectUnknownFields(args, toolFields(tool));
  rejectOverlongStrings(args);
  for (const root of ctx.workspace.roots) root.forgetChecks?.();
  return tool.execute(args, ctx);
}

export type { Tool, ToolContext };
