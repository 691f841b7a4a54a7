/**
 * The viewer's exact colouring, asked of the engine for the lines on screen: blocks of lines
 * around the visible range are fetched once each (the worker parses the file once and colours
 * each block from its grammar's highlight queries); until a block arrives, and for files the
 * engine cannot colour (no grammar or query: the first answer is null), lines keep the
 * colouring by language family.
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

export function useSyntax(path: string, firstLine: number, lastLine: number, lineCount: number): Syntax {
  const engine = useEngine();
  const [blocks, setBlocks] = useState<ReadonlyMap<number, LineSpans[]>>(new Map());
  const [mode, setMode] = useState<Syntax['mode']>('pending');
  const asked = useRef(new Set<number>());
  // answers are kept while the viewer of this file is mounted (a scroll asks for more, it does not cancel)
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const first = Math.floor(Math.max(0, firstLine - 1) / BLOCK);
  const last = Math.floor(Math.max(0, Math.min(lineCount, lastLine) - 1) / BLOCK);

  useEffect(() => {
    if (mode === 'family' || lineCount === 0) return;
    for (let b = first; b <= last; b++) {
      if (asked.current.has(b)) continue;
      asked.current.add(b);
      const from = b * BLOCK + 1;
      engine.syntax(path, from, Math.min(lineCount, from + BLOCK - 1)).then(
        (w) => {
          if (!mounted.current) return;
          if (!w) return setMode('family');
          setMode('exact');
          setBlocks((m) => new Map(m).set(b, w.lines));
        },
        () => {
          if (mounted.current) setMode('family'); // the family colouring stays; nothing to tell the user
        },
      );
    }
  }, [engine, path, first, last, lineCount, mode]);

  return {
    mode,
    spansOf: (line) => blocks.get(Math.floor((line - 1) / BLOCK))?.[(line - 1) % BLOCK],
  };
}
