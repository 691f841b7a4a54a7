/**
 * explore (seed 003): one call for a structured understanding of a directory or file: tree,
 * key files, dependencies, patterns, focus findings and a summary; deep adds the import graph
 * and git history. The seed's sub-agents are deterministic analyzers here (core/explore/run.ts),
 * run concurrently; one that fails is reported in `errors`, not fatal. The seed's string fields
 * keep their names and types; structured twins carry the same facts as data.
 */
import { QuarryError } from '../errors';
import { runExplore } from '../explore/run';
import type { ExploreDepth, ExploreResult } from '../explore/types';
import type { Tool } from './types';
import { ensureObject, optionalEnum, optionalString, requiredString } from './validate';

export function parseExploreArgs(raw: unknown): { path: string; focus?: string; depth: ExploreDepth } {
  const args = ensureObject(raw);
  const path = requiredString(args, 'path');
  if (!path.trim())
    throw new QuarryError('InvalidArgument', 'path must not be empty', { field: 'path', value: path });
  const focus = optionalString(args, 'focus')?.trim();
  const depth = optionalEnum<ExploreDepth>(args, 'depth', ['shallow', 'standard', 'deep'], 'standard');
  return { path, ...(focus ? { focus } : {}), depth };
}

export const exploreTool: Tool<ExploreResult> = {
  name: 'explore',
  description:
    'Explore a directory or codebase to understand structure, patterns, and conventions. Read-only. Returns the tree (three levels), key files with roles, dependencies from every manifest, code patterns counted with examples, focus findings and a summary; depth deep adds the import graph (cycles, hubs, orphans) and git history. Analyzers run concurrently; one that fails is listed in errors and the rest still arrive.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Directory or file to explore' },
      focus: { type: 'string', description: 'What to look for (e.g. "auth patterns", "test structure")' },
      depth: {
        type: 'string',
        enum: ['shallow', 'standard', 'deep'],
        default: 'standard',
        description: 'How thorough: shallow, standard (default), or deep',
      },
    },
    required: ['path'],
    additionalProperties: false,
  },
  async execute(raw, ctx) {
    return runExplore(ctx, parseExploreArgs(raw));
  },
};
