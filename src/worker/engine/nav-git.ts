/** Navigation (definitions, references, outline, symbols) and git (the library, history, one file's diff, history and blame). */
import { elapsedSince, now } from '../../core/jobs/yielder';
import type { ReferenceFile } from '../../core/nav/types';
import { Batcher } from '../edge';
import type { ServiceHandlers } from './api';
import { namedRoot, type EngineContext } from './context';

export function navHandlers(ctx: EngineContext): ServiceHandlers<'nav'> {
  const { nav } = ctx;
  return {
    definitions: (request) => nav.definitions(request),
    references: async (scope, request) => {
      const t0 = now();
      const batcher = new Batcher<ReferenceFile>(
        (items) => scope.events.send({ type: 'batch', data: items }),
        (f) => f.lines.length,
      );
      const r = await nav.references(request, { signal: scope.signal, onFile: (f) => batcher.push(f) });
      const ending = scope.signal.aborted ? ('cancelled' as const) : ('complete' as const);
      return {
        results: batcher.drain(),
        limitHit: r.limitHit,
        skipped: [],
        stats: { elapsedMs: elapsedSince(t0), ending, total: r.total, limitHit: r.limitHit },
      };
    },
    outline: (path) => nav.outline(path),
    workspaceSymbols: (query, limit) => nav.workspaceSymbols(query, limit ?? 50),
  };
}

export function gitHandlers(ctx: EngineContext): ServiceHandlers<'git'> {
  const { roots, git, fileGit, histories } = ctx;
  return {
    cloneRepo: (scope, request) => git.clone(scope, request),
    fetchRepo: (scope, id, auth) => git.fetch(scope, id, auth ?? {}),
    deepenRepo: (scope, id, by, auth) => git.deepen(scope, id, by ?? 50, auth ?? {}),
    library: () => git.library(),
    recentFolders: () => git.recentFolders(),
    deleteRepo: (id) => git.delete(id),
    history: (request) => {
      const limit = Math.max(1, Math.min(500, Math.floor(Number(request?.limit ?? 50)) || 50));
      const session = namedRoot(roots, request?.root);
      return git.history(session, limit, roots.prefixOf(session));
    },
    historyLog: (scope, request) => {
      const session = namedRoot(roots, request?.root);
      return histories.log(scope, session, roots.prefixOf(session));
    },
    commitChanges: (request) => {
      const session = namedRoot(roots, request?.root);
      return histories.changes(session, roots.prefixOf(session), request?.oid);
    },
    fileGitStatus: (path) => fileGit.status(roots.route(String(path ?? '')).root),
    fileDiff: (request) => {
      const { root: session, rel, prefix } = roots.route(request?.path, 'path');
      return fileGit.diff(session, rel, prefix, request?.commit);
    },
    fileHistory: (scope, path) => {
      const { root: session, rel } = roots.route(path);
      return fileGit.history(scope, session, rel);
    },
    blame: (scope, path) => {
      const { root: session, rel, prefix } = roots.route(path);
      return fileGit.blame(scope, session, rel, prefix);
    },
  };
}
