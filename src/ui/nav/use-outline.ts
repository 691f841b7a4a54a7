/**
 * A file's outline from the worker, shared by the breadcrumbs, the Outline panel and the
 * in-file symbol picker: one request per (repository state, index state, file).
 */
import { startTransition, useEffect, useState } from 'react';
import { toQuarryError } from '../../core/errors';
import type { OutlineNode } from '../../worker/protocol';
import type { EngineClient } from '../../worker/client';
import { useEngine } from '../engine';

export type OutlineState =
  { state: 'loading' } | { state: 'ready'; outline: OutlineNode[] } | { state: 'error'; message: string };

const cache = new Map<string, Promise<OutlineNode[]>>();
const MAX_CACHED = 64;

function outlineOf(engine: EngineClient, key: string, path: string): Promise<OutlineNode[]> {
  let p = cache.get(key);
  if (!p) {
    p = engine.outline(path);
    p.catch(() => cache.delete(key));
    cache.set(key, p);
    if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
  }
  return p;
}

export function useOutline(path: string, repoKey: string, indexVersion: number): OutlineState {
  const engine = useEngine();
  const [s, setS] = useState<OutlineState & { key?: string }>({ state: 'loading' });
  const key = `${repoKey}\n${indexVersion}\n${path}`;
  useEffect(() => {
    if (!path) return;
    let live = true;
    outlineOf(engine, key, path).then(
      // a transition: a big outline renders in time slices, not in the task of the answer
      (outline) => live && startTransition(() => setS({ state: 'ready', outline, key })),
      (err) => live && setS({ state: 'error', message: toQuarryError(err).message, key }),
    );
    return () => {
      live = false;
    };
  }, [engine, key, path]);
  return s.key === key ? s : { state: 'loading' };
}

/** Every node of an outline in document order, with its depth. */
export function flattenOutline(
  outline: readonly OutlineNode[],
  depth = 0,
  out: { node: OutlineNode; depth: number }[] = [],
) {
  for (const node of outline) {
    out.push({ node, depth });
    flattenOutline(node.children, depth + 1, out);
  }
  return out;
}
