/**
 * A drag handle between two panes (a WAI-ARIA window splitter): drag it, or focus it and use
 * ArrowLeft/ArrowRight (ArrowUp/ArrowDown for the horizontal one between a view and the file
 * under it; Shift: bigger steps), Home/End; double-click or Enter restores the
 * default. It sizes one pane of the PaneLayout; a drag writes CSS variables only (the panes
 * are not re-rendered) and is stored when the pointer is let go.
 */
import { useRef, useSyncExternalStore, type KeyboardEvent, type PointerEvent } from 'react';
import { keyResize, paneLayout, type PaneKey } from './pane-layout';
import './workspace.css';

export function Splitter({
  pane,
  label,
  controls,
  className,
}: {
  pane: PaneKey;
  /** The accessible name, e.g. "Resize the file tree". */
  label: string;
  /** The id of the pane it sizes, when it has one. */
  controls?: string;
  className?: string;
}) {
  const layout = paneLayout();
  const applied = useSyncExternalStore(layout.subscribe, () => layout.layout);
  const value = applied[pane];
  const range = applied.range[pane];
  // The Related panel is right of its splitter: dragging left widens it.
  const direction = pane === 'related' ? -1 : 1;
  // the stacked parts' splitter lies across the column: it moves up and down
  const horizontal = pane === 'stack';
  const drag = useRef<{ x: number; start: number; id: number } | null>(null);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    drag.current = { x: horizontal ? e.clientY : e.clientX, start: value, id: e.pointerId };
    document.body.classList.add(horizontal ? 'resizing-rows' : 'resizing');
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const at = horizontal ? e.clientY : e.clientX;
    layout.preview(pane, Math.max(range.min, Math.min(range.max, d.start + (at - d.x) * direction)));
  };
  const end = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current || drag.current.id !== e.pointerId) return;
    drag.current = null;
    document.body.classList.remove('resizing', 'resizing-rows');
    layout.commit();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = keyResize(e.key, e.shiftKey, value, range, direction);
    if (next === null) return;
    e.preventDefault();
    if (next === 'reset') layout.reset(pane);
    else layout.set(pane, next);
  };

  return (
    <div
      role="separator"
      aria-orientation={horizontal ? 'horizontal' : 'vertical'}
      aria-label={label}
      aria-controls={controls}
      aria-valuenow={value}
      aria-valuemin={range.min}
      aria-valuemax={range.max}
      aria-valuetext={`${value} pixels`}
      tabIndex={0}
      title={`${label}: drag, or use the arrow keys; double-click to reset`}
      className={`splitter${horizontal ? ' splitter-h' : ''}${className ? ` ${className}` : ''}`}
      data-testid={`splitter-${pane}`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={end}
      onPointerCancel={end}
      onLostPointerCapture={end}
      onDoubleClick={() => layout.reset(pane)}
      onKeyDown={onKeyDown}
    />
  );
}
