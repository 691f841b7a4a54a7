/** The tool registry: every tool contract Quarry answers, in one list. */
import { QuarryError } from '../errors';
import { codebaseSearch } from './codebase_search';
import { codeSearch } from './code_search';
import { findRelated } from './find_related';
import { findComponentsTool } from './find_components';
import { getRoutes } from './get_routes';
import { featureStatusTool } from './feature_status';
import { listDirectory } from './list_directory';
import { readFile } from './read_file';
import { searchCorpus } from './search_corpus';
import { searchFiles } from './search_files';
import type { Tool, ToolContext } from './types';

export const TOOLS: Tool[] = [
  codeSearch,
  readFile,
  listDirectory,
  searchFiles,
  searchCorpus,
  codebaseSearch,
  findRelated,
  findComponentsTool,
  getRoutes,
  featureStatusTool,
];

export function findTool(name: string): Tool {
  const tool = TOOLS.find((t) => t.name === name);
  if (!tool) {
    throw new QuarryError('InvalidArgument', `Unknown tool "${name}". Tools: ${TOOLS.map((t) => t.name).join(', ')}`, {
      field: 'tool',
      value: name,
    });
  }
  return tool;
}

export function describeTools() {
  return TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
}

export async function callTool(name: string, args: unknown, ctx: ToolContext): Promise<unknown> {
  return findTool(name).execute(args, ctx);
}

export type { Tool, ToolContext };
