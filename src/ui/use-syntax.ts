/**
 * The viewer's exact colouring, asked of the engine for the lines on screen: blocks of lines
 * around the visible range are fetched once each (the worker parses the file once and colours
 * each block from its grammar's highlight queries); until a block arrives, and for files the
 * engine cannot colour (no grammar or query: the first answer is null), lines keep the
 * colouring by language family. New content for the same path (a reload: `version` is a hash of
 * the text, so the same text read again for new search highlights keeps its colours) starts
 * afresh, and an answer for the old content is dropped.
 */
import { useEffect, useRef, useState } from 'react';
import type { LineSpans } from '../worker/protocol';
import { useEngine } from './engine';

/** Lines per request. */
const BLOCK = 200;

export interface Syntax {
  /** The exact colouring of a line (1-based), when its block has arrived. */
  spansOf(line: number): LineSpans | undefined;
  /** 'exact' once a block came from the grammar, 'family' when the engine has none for this file. */
  mode: 'pending' | 'exact' | 'family';
}

interface State {
  /** The content the blocks colour (a hash of its text). */
  version: string;
  blocks: ReadonlyMap<number, LineSpans[]>;
  mode: Syntax['mode'];
}

export function useSyntax(
  path: string,
  version: string,
  count: number,
  firstLine: number,
  lastLine: number,
): Syntax {
  const engine = useEngine();
  const [state, setState] = useState<State>({ version, blocks: new Map(), mode: 'pending' });
  const current =
    state.version === version
      ? state
      : { version, blocks: new Map<number, LineSpans[]>(), mode: 'pending' as const };
  // which blocks were asked for, per content
  const asked = useRef<{ version: string; blocks: Set<number> }>({ version, blocks: new Set() });
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const first = Math.floor(Math.max(0, firstLine - 1) / BLOCK);
  const last = Math.floor(Math.max(0, Math.min(count, lastLine) - 1) / BLOCK);
  const family = current.mode === 'family';

  useEffect(() => {
    if (family || count === 0) return;
    if (asked.current.version !== version) asked.current = { version, blocks: new Set() };
    const update = (change: (s: State) => State) =>
      setState((s) => {
        const base =
          s.version === version
            ? s
            : { version, blocks: new Map<number, LineSpans[]>(), mode: 'pending' as const };
        return change(base);
      });
    for (let b = first; b <= last; b++) {
      if (asked.current.blocks.has(b)) continue;
      asked.current.blocks.add(b);
      const from = b * BLOCK + 1;
      engine.syntax(path, from, Math.min(count, from + BLOCK - 1)).then(
        (w) => {
          if (!mounted.current || asked.current.version !== version) return; // unmounted, or the content changed
          if (!w) update((s) => ({ ...s, mode: 'family' }));
          else update((s) => ({ ...s, mode: 'exact', blocks: new Map(s.blocks).set(b, w.lines) }));
        },
        () => {
          // the family colouring stays; nothing to tell the user
          if (mounted.current && asked.current.version === version) update((s) => ({ ...s, mode: 'family' }));
        },
      );
    }
  }, [engine, path, version, first, last, count, family]);

  return {
    mode: current.mode,
    spansOf: (line) => current.blocks.get(Math.floor((line - 1) / BLOCK))?.[(line - 1) % BLOCK],
  };
}
