/**
 * The viewer's caret (caret.ts moves it): where it is, whether it is drawn, and how the view
 * follows it. The address holds its line and column (url-state.ts): a move by the keys is
 * written there a moment after the keys stop (the browser limits how often an address may
 * change), at once before a jump (BEFORE_JUMP), when focus leaves the viewer, and on a click.
 * A change of the address that the caret did not write (a jump, Back, F3) moves the caret and
 * centres its line; a move by the keys scrolls only as far as needed; a click not at all.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { clampCaret, moveCaret, type Caret, type CaretKey } from './caret';
import { BEFORE_JUMP } from './jump-history';

/** How the view follows the caret: centre its line, scroll as little as needed, or not at all. */
export type RevealMode = 'center' | 'nearest' | 'none';
export interface Reveal {
  /** The line to show (0: the top of the file), and the caret's column on it. */
  line: number;
  col: number;
  mode: RevealMode;
  /** Changes with each request (the same line can be asked for twice). */
  seq: number;
}

/** The viewer asks the address for a line (and a 1-based column), pushed as a jump or not. */
export type OnLine = (line: number, options?: { col?: number; push?: boolean }) => void;

/** Milliseconds after the last caret move before the address follows. */
const WRITE_DELAY = 300;

interface State {
  caret: Caret;
  /** The column up and down aim for. */
  goal: number | null;
  /** Drawn, with its line current (a file opened without a line has no caret until it is used). */
  shown: boolean;
  /** Placed by the person or a definition (its word's occurrences are marked; F12 looks it up). */
  placed: boolean;
  reveal: Reveal;
}

export interface CaretApi {
  caret: Caret;
  shown: boolean;
  placed: boolean;
  reveal: Reveal;
  /** A caret key in the viewer: moved and true, or false for any other key. */
  onKey: (e: CaretKey & { preventDefault: () => void }) => boolean;
  /** A click placed the caret (not scrolled); `word: false` (a line number): its word is not marked. */
  place: (caret: Caret, word?: boolean) => void;
  /** A jump inside the file (Go to line, breadcrumbs): the caret's place written first, then pushed. */
  jumpTo: (line: number, col?: number) => void;
  /** Write the caret's place into the address now. */
  flush: () => void;
}

export function useCaret({
  path,
  lines,
  line,
  col,
  firstHit,
  onLine,
  scrollRef,
  rowHeight,
}: {
  path: string;
  lines: readonly string[];
  /** From the address: the line (0: none) and the caret's 1-based column (0: none). */
  line: number;
  col: number;
  /** Where a file opened without a line lands (0: the top). */
  firstHit: number;
  onLine: OnLine;
  scrollRef: RefObject<HTMLElement | null>;
  rowHeight: number;
}): CaretApi {
  const [state, setState] = useState<State>(() => initial(line, col, firstHit, 0));
  // Back/Forward's address is adopted even when equal to the last props (a jump's render may not have committed)
  const [popped, setPopped] = useState(0);
  /** What the caret last wrote into the address: its echo is not a jump. */
  const written = useRef<{ path: string; line: number; col: number } | null>(null);
  /** A place moved to and not yet written. */
  const pending = useRef<{ path: string; caret: Caret } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ path, onLine });
  useEffect(() => {
    latest.current = { path, onLine };
  });

  const flush = () => {
    clearTimeout(timer.current);
    const p = pending.current;
    pending.current = null;
    if (!p || p.path !== latest.current.path) return;
    written.current = { path: p.path, line: p.caret.line, col: p.caret.col + 1 };
    latest.current.onLine(p.caret.line, { col: p.caret.col + 1 });
  };
  const flushRef = useRef(flush);
  useEffect(() => {
    flushRef.current = flush;
  });

  // The address changed: adopt it unless it is the caret's own write coming back.
  useEffect(() => {
    const w = written.current;
    if (w && w.path === path && w.line === line && w.col === col) return;
    written.current = null;
    pending.current = null;
    clearTimeout(timer.current);
    setState((s) => initial(line, col, firstHit, s.reveal.seq + 1));
  }, [path, line, col, firstHit, popped]);

  // Written before a jump or Back; dropped when the browser's own Back moved the address under it.
  useEffect(() => {
    const before = () => flushRef.current();
    const onPop = () => {
      pending.current = null;
      written.current = null;
      clearTimeout(timer.current);
      setPopped((n) => n + 1);
    };
    window.addEventListener(BEFORE_JUMP, before);
    window.addEventListener('popstate', onPop);
    return () => {
      window.removeEventListener(BEFORE_JUMP, before);
      window.removeEventListener('popstate', onPop);
      clearTimeout(timer.current);
    };
  }, []);

  const caret = clampCaret(lines, state.caret);
  const moveTo = (next: Caret, goal: number | null, mode: RevealMode, writeNow: boolean, placed = true) => {
    setState((s) => ({
      caret: next,
      goal,
      shown: true,
      placed,
      reveal: { line: next.line, col: next.col, mode, seq: s.reveal.seq + 1 },
    }));
    pending.current = { path, caret: next };
    clearTimeout(timer.current);
    if (writeNow) flush();
    else timer.current = setTimeout(() => flushRef.current(), WRITE_DELAY);
  };

  return {
    caret,
    shown: state.shown,
    placed: state.placed,
    reveal: state.reveal,
    onKey: (e) => {
      const rows = Math.floor((scrollRef.current?.clientHeight ?? 0) / rowHeight) || 20;
      const m = moveCaret(lines, caret, state.shown ? state.goal : null, e, rows);
      if (!m) return false;
      e.preventDefault();
      moveTo(m.caret, m.goal, 'nearest', false);
      return true;
    },
    place: (next, word = true) => moveTo(clampCaret(lines, next), null, 'none', true, word),
    jumpTo: (n, c = 0) => {
      flush();
      const next = clampCaret(lines, { line: n, col: Math.max(0, c - 1) });
      written.current = { path, line: next.line, col: c ? next.col + 1 : 0 };
      setState((s) => ({
        caret: next,
        goal: null,
        shown: true,
        placed: c > 0,
        reveal: { line: next.line, col: next.col, mode: 'center', seq: s.reveal.seq + 1 },
      }));
      onLine(next.line, { col: c ? next.col + 1 : 0, push: true });
    },
    flush,
  };
}

/** The caret where the address puts it: on its line and column, or on the first hit, not drawn. */
function initial(line: number, col: number, firstHit: number, seq: number): State {
  const target = line > 0 ? line : firstHit;
  return {
    caret: { line: Math.max(1, target), col: col > 0 ? col - 1 : 0 },
    goal: null,
    shown: line > 0,
    placed: line > 0 && col > 0,
    reveal: { line: target, col: col > 0 ? col - 1 : 0, mode: 'center', seq },
  };
}
