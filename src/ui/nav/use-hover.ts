/**
 * The hover card's timing and place: the pointer resting ~400 ms on a name in the viewer (or
 * Ctrl+K Ctrl+I at the caret, as in VS Code) shows the name's definition, looked up in the
 * symbol index as F12 does; moving off the word (not into the card), scrolling, a caret move,
 * another file or Esc closes it. One lookup per name and file until the index changes.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { toQuarryError } from '../../core/errors';
import { identifierAt } from '../../core/nav/identifier';
import type { DefinitionsResult } from '../../core/nav/types';
import { useEngine } from '../engine';
import { identifierAtPoint, rangeOfColumns } from './code-click';

export const HOVER_DELAY = 400;
const HIDE_DELAY = 300;

export type HoverInfo =
  { state: 'loading' } | { state: 'ready'; result: DefinitionsResult } | { state: 'error'; message: string };

export interface HoverCardState {
  name: string;
  /** Where the card goes in the viewer's box: under the word (or over it near the bottom). */
  x: number;
  y: number;
  above: boolean;
  /** Shown from the keyboard (stays until Esc, a key or a click). */
  byKey: boolean;
  info: HoverInfo;
}

type Rect = { left: number; top: number; right: number; bottom: number };
const inside = (r: Rect, x: number, y: number) =>
  x >= r.left - 2 && x <= r.right + 2 && y >= r.top - 2 && y <= r.bottom + 2;

export function useHover({
  path,
  lines,
  indexVersion,
  scrollRef,
}: {
  path: string;
  lines: readonly string[];
  indexVersion: number;
  scrollRef: RefObject<HTMLElement | null>;
}) {
  const [card, setCard] = useState<HoverCardState | null>(null);
  const showTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** The shown word's box on screen (the pointer may rest anywhere on it). */
  const wordBox = useRef<Rect | null>(null);
  /** Bumped per card: a late answer for an older card is dropped. */
  const seq = useRef(0);

  const lookUp = useDefinitionLookup(path, indexVersion);
  useEffect(() => {
    setCard(null);
  }, [path]);
  useEffect(
    () => () => {
      clearTimeout(showTimer.current);
      clearTimeout(hideTimer.current);
    },
    [],
  );

  const close = () => {
    clearTimeout(showTimer.current);
    clearTimeout(hideTimer.current);
    wordBox.current = null;
    seq.current++;
    setCard(null);
  };
  const closeRef = useRef(close);
  useEffect(() => {
    closeRef.current = close;
  });
  useEscape(card !== null, closeRef);

  /** Show the card for the word at [start, end) of `line`. */
  const show = (line: number, start: number, end: number, name: string, byKey: boolean) => {
    const scroller = scrollRef.current;
    const viewer = scroller?.closest<HTMLElement>('.viewer');
    const code = scroller?.querySelector<HTMLElement>(`.code-line[data-line="${line}"] .code`);
    const range = code ? rangeOfColumns(code, start, end) : null;
    if (!viewer || !range) return;
    const word = range.getBoundingClientRect();
    const box = viewer.getBoundingClientRect();
    wordBox.current = word;
    const above = word.bottom - box.top > box.height * 0.6;
    const id = ++seq.current;
    const answer = lookUp(name);
    setCard({
      name,
      x: Math.max(0, word.left - box.left),
      y: above ? word.top - box.top : word.bottom - box.top,
      above,
      byKey,
      info: { state: 'loading' },
    });
    answer.then(
      (result) => id === seq.current && setCard((c) => c && { ...c, info: { state: 'ready', result } }),
      (err) =>
        id === seq.current &&
        setCard((c) => c && { ...c, info: { state: 'error', message: toQuarryError(err).message } }),
    );
  };

  const hideSoon = () => {
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(close, HIDE_DELAY);
  };

  const onMouseMove = (e: React.MouseEvent) => {
    if (e.buttons) return; // a drag selecting text
    const { clientX: x, clientY: y } = e;
    if (card && wordBox.current && inside(wordBox.current, x, y)) {
      clearTimeout(hideTimer.current);
      return;
    }
    if (card && !card.byKey) hideSoon();
    const target = e.target as HTMLElement;
    clearTimeout(showTimer.current);
    showTimer.current = setTimeout(() => {
      const row = target.closest?.<HTMLElement>('.code-line');
      const code = row?.querySelector<HTMLElement>('.code');
      if (!row || !code?.contains(target) || !target.isConnected) return;
      const n = Number(row.dataset.line);
      const hit = identifierAtPoint(code, lines[n - 1] ?? '', x, y);
      if (hit) show(n, hit.start, hit.end, hit.name, false);
    }, HOVER_DELAY);
  };

  return {
    card,
    close,
    /** Ctrl+K Ctrl+I: the card for the word at the caret (false when the caret is not on a name). */
    showAt: (line: number, col: number): boolean => {
      const hit = identifierAt(lines[line - 1] ?? '', col);
      if (!hit) return false;
      show(line, hit.start, hit.end, hit.name, true);
      return true;
    },
    onMouseMove,
    onMouseLeave: () => {
      clearTimeout(showTimer.current);
      if (card && !card.byKey) hideSoon();
    },
    /** The pointer entered the card: it stays. */
    onCardEnter: () => clearTimeout(hideTimer.current),
    onCardLeave: () => {
      if (card && !card.byKey) hideSoon();
    },
  };
}

/** The name's definitions from the file (as F12 asks), one lookup per name until the file or the index changes. */
function useDefinitionLookup(path: string, indexVersion: number) {
  const engine = useEngine();
  const cache = useRef(new Map<string, Promise<DefinitionsResult>>());
  useEffect(() => {
    cache.current.clear();
  }, [indexVersion, path]);
  return (name: string): Promise<DefinitionsResult> => {
    const key = `${path}\n${name}`;
    let answer = cache.current.get(key);
    if (!answer) {
      answer = engine.definitions({ name, path });
      cache.current.set(key, answer);
      answer.catch(() => cache.current.delete(key)); // not kept: the index may be ready next time
    }
    return answer;
  };
}

/** While `open`, Esc calls `onEscape` wherever the focus is. */
function useEscape(open: boolean, onEscape: RefObject<() => void>) {
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onEscape.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onEscape]);
}
