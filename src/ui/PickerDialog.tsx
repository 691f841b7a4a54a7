/**
 * The picker dialog quick open (files) and go to symbol share: a modal with a combobox over a
 * listbox of options. Arrow keys move the active option, Enter chooses it, Escape or a click
 * on the backdrop closes; the focus is trapped in the dialog and given back on close. What is
 * listed, how an option reads and what the input does with its text are the caller's.
 */
import { type CSSProperties, type ReactNode, useEffect, useRef } from 'react';
import { useFocusTrap } from './use-focus-trap';
import { VisibleText } from './VisibleText';

/** `text` with the characters at `positions` in <mark> elements (a fuzzy match's hits). */
export function Highlighted({ path, positions }: { path: string; positions: number[] }) {
  const set = new Set(positions);
  const out: ReactNode[] = [];
  let run = '';
  let marked = false;
  const flush = (key: number) => {
    if (!run) return;
    out.push(
      marked ? (
        <mark key={key}>
          <VisibleText text={run} />
        </mark>
      ) : (
        <span key={key}>
          <VisibleText text={run} />
        </span>
      ),
    );
    run = '';
  };
  for (let i = 0; i < path.length; i++) {
    const m = set.has(i);
    if (m !== marked) {
      flush(i);
      marked = m;
    }
    run += path[i];
  }
  flush(path.length);
  return <>{out}</>;
}

export interface PickerDialogProps<T> {
  /** The dialog's accessible name. */
  label: string;
  testId: string;
  /** The combobox's accessible name and placeholder. */
  inputLabel: string;
  placeholder: string;
  query: string;
  onInput: (value: string) => void;
  /** The listbox's id and accessible name; options get ids `${optionIdPrefix}${i}`. */
  listId: string;
  listLabel: string;
  optionIdPrefix: string;
  itemTestId: string;
  items: readonly T[];
  /** The active option (clamped to the list), and how it moves. */
  active: number;
  setActive: (i: number) => void;
  error: string;
  /** Whether the error is announced (role="alert"). */
  alertError?: boolean;
  /** The row shown when nothing is listed and there is no error. */
  empty: ReactNode;
  itemKey: (item: T) => string;
  itemStyle?: (item: T) => CSSProperties | undefined;
  renderItem: (item: T) => ReactNode;
  onChoose: (item: T) => void;
  onClose: () => void;
}

export function PickerDialog<T>(props: PickerDialogProps<T>) {
  const { items, active, setActive, onClose } = props;
  const inputRef = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  // before the input takes focus: the trap notes what had it, to give it back on close
  useFocusTrap(dialogRef);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  const shown = Math.min(active, Math.max(0, items.length - 1));
  const choose = (item: T | undefined) => {
    if (item === undefined) return;
    props.onChoose(item);
    onClose();
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-label={props.label}
        className="quick-open"
        data-testid={props.testId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive(Math.min(items.length - 1, shown + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive(Math.max(0, shown - 1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            choose(items[shown]);
          }
        }}
      >
        <input
          ref={inputRef}
          role="combobox"
          aria-label={props.inputLabel}
          aria-expanded={items.length > 0}
          aria-controls={props.listId}
          aria-activedescendant={items[shown] !== undefined ? `${props.optionIdPrefix}${shown}` : undefined}
          aria-autocomplete="list"
          placeholder={props.placeholder}
          value={props.query}
          spellCheck={false}
          onChange={(e) => props.onInput(e.target.value)}
        />
        {props.error && (
          <p className="inline-error" role={props.alertError ? 'alert' : undefined}>
            {props.error}
          </p>
        )}
        <ul role="listbox" id={props.listId} aria-label={props.listLabel} className="quick-list">
          {items.map((item, i) => (
            <li
              key={props.itemKey(item)}
              id={`${props.optionIdPrefix}${i}`}
              role="option"
              aria-selected={i === shown}
              className={i === shown ? 'active' : ''}
              data-testid={props.itemTestId}
              style={props.itemStyle?.(item)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(item)}
              onMouseMove={() => setActive(i)}
            >
              {props.renderItem(item)}
            </li>
          ))}
          {!items.length && !props.error && (
            <li className="qo-empty" role="presentation">
              {props.empty}
            </li>
          )}
        </ul>
      </div>
    </div>
  );
}
