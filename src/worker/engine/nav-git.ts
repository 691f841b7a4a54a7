/** Navigation (definitions, references, outline, symbols) and git (the library, history, one file's diff, history and blame). */
import { elapsedSince, now } from '../../core/jobs/yielder';
import type { ReferenceFile } from '../../core/nav/types';
import { Batcher } from '../edge';
import type { ServiceHandlers } from './api';
import { namedRoot, type EngineContext } from './context';
import { planFor, planOf } from './query';
import { historySearch, historySearchRoots } from '../history-search';

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
    symbolSearch: (query, options) =>
      nav.symbolSearch(planOf(planFor(ctx.roots, query, options), ['symbol'], 'symbolSearch')),
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
    historySearch: async (scope, query, options) => {
      const plan = planOf(planFor(roots, query, options), ['commit', 'diff'], 'historySearch');
      const names = roots.names();
      const targets = roots.roots.filter((_, i) => !plan.roots || plan.roots.includes(names[i]));
      const deps = { histories, store: ctx.options.indexStore, yieldBudgetMs: ctx.options.yieldBudgetMs };
      if (targets.length === 1)
        return historySearch(deps, scope, targets[0], roots.prefixOf(targets[0]), plan);
      return historySearchRoots(
        deps,
        scope,
        targets.map((s) => ({ session: s, prefix: roots.prefixOf(s) })),
        plan,
      );
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
