/**
 * The tool registry: every tool contract Quarry answers (TOOLS: what `quarry mcp` lists), and
 * the app's view tools beside them (VIEW_TOOLS); the app's engine and `quarry call` serve both
 * (ALL_TOOLS), through the one callTool.
 */
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
import { searchTool } from './search';
import { semanticCodeSearch } from './semantic-code-search';
import type { Tool, ToolContext } from './types';
import { rejectOverlongStrings, rejectUnknownFields } from './validate';
import { flagInventoryTool } from './views/flag-inventory';
import { rankedView } from './views/ranked-view';
import { relatedView } from './views/related-view';
import { semanticSearchView } from './views/semantic-view';

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
  searchTool,
];

/**
 * The engine's own tools behind the app's views, answering in the views' shapes (snippet lines
 * with marked ranges, score components): Ranked mode, Semantic mode, the Related panel, the
 * Features view. Not contracts of a seed, and not listed over MCP, where ranked_search,
 * related_code, semantic_code_search and feature_status answer the same questions for programs.
 */
export const VIEW_TOOLS: Tool[] = [rankedView, semanticSearchView, relatedView, flagInventoryTool];

/** Every tool the app's engine and `quarry call` serve: the contracts, then the view tools. */
export const ALL_TOOLS: readonly Tool[] = [...TOOLS, ...VIEW_TOOLS];

export function findTool(name: string, tools: readonly Tool[] = TOOLS): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    throw new QuarryError(
      'InvalidArgument',
      `Unknown tool "${name}". Tools: ${tools.map((t) => t.name).join(', ')}`,
      {
        field: 'tool',
        value: name,
      },
    );
  }
  return tool;
}

export function describeTools(tools: readonly Tool[] = TOOLS) {
  return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

/** The fields a tool accepts: its schema's properties, aliases included (see JsonSchema). */
export function toolFields(tool: Tool): string[] {
  return Object.keys(tool.inputSchema.properties);
}

/**
 * The one entry every host calls a tool through (the CLI's `quarry call`, the MCP server, the
 * app's worker), over the tools that host serves (`tools`: MCP the contracts, the others
 * ALL_TOOLS): an unknown field is refused first, before the tool's own checks and before any
 * index refresh (seed 004: parser failures come before the refresh); so is a string over the
 * length cap (src/core/limits.ts).
 */
export async function callTool(
  name: string,
  args: unknown,
  ctx: ToolContext,
  tools: readonly Tool[] = TOOLS,
): Promise<unknown> {
  const tool = findTool(name, tools);
  rejectUnknownFields(args, toolFields(tool));
  rejectOverlongStrings(args);
  for (const root of ctx.workspace.roots) root.forgetChecks?.();
  return tool.execute(args, ctx);
}

export type { Tool, ToolContext };
