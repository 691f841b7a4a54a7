/**
 * related_view: the app's Related panel. The chunks related to the one containing path:line,
 * ranked for people (core/rank/related-people.ts: size-normalised similarity, siblings first,
 * each hit with its reasons), with find_related's argument rules and errors, so the panel and an
 * agent get the same answer to the same bad input. related_code is the same ranking for programs.
 */
import { QuarryError } from '../../errors';
import { relatedAtLine } from '../../rank/related';
import type { ToolRoot } from '../../workspace/root';
import { checkRelatedLine, findRelated, NO_RELATED, parseFindRelatedArgs } from '../find-related';
import type { Tool } from '../types';
import { chunkRef, routeAmong, toolRoots } from './shared';
import type { RelatedResult } from './types';

/** The root `root` names (its key, display name or prefix, as RepoWorkspace.named reads it). */
function namedRoot(roots: readonly ToolRoot[], name: string): ToolRoot {
  const found = roots.find((r) => r.root.key === name || r.name === name || `${r.name}/` === name);
  if (!found)
    throw new QuarryError('InvalidArgument', `root is not an open repository: ${name}`, {
      field: 'root',
      value: name,
    });
  return found;
}

export const relatedView: Tool<RelatedResult> = {
  name: 'related_view',
  description:
    "The app's Related panel, in its shape: the chunks most like Quarry's symbol chunk at path:line (related_code's ranking: siblings first, big containers last), each with the terms it shares and why it is related; find_related's arguments (root: a root's name or key makes path relative to it) and errors. Programs usually want related_code.",
  inputSchema: { ...findRelated.inputSchema },
  async execute(raw, ctx) {
    const args = parseFindRelatedArgs(raw);
    const roots = toolRoots(ctx, 'related_view');
    // `root` makes `path` relative to that root, as in find_related
    const named = args.root === undefined ? undefined : namedRoot(roots, args.root);
    const noChunk = () =>
      new QuarryError('EngineError', NO_RELATED, { path: args.path, line: args.line, reason: 'noChunk' });
    let routed: ReturnType<typeof routeAmong>;
    try {
      routed = routeAmong(roots, named ? named.prefix + args.path : args.path);
    } catch (err) {
      // a path in no open root has no chunk: find_related's answer
      if (err instanceof QuarryError && err.reason === 'noSuchRoot') throw noChunk();
      throw err;
    }
    const { root, rel } = routed;
    const index = await root.root.codeIndex(ctx.signal);
    checkRelatedLine(args.line);
    const at = await relatedAtLine(index, rel, args.line, () => root.root.lines(rel), args.limit);
    if (!at) throw noChunk();
    return {
      seed: chunkRef(at.seed, root.prefix),
      results: at.related.map((r) => ({
        ...chunkRef(r.chunk, root.prefix),
        score: r.score,
        sharedTerms: r.sharedTerms,
        reasons: r.reasons,
      })),
    };
  },
};
