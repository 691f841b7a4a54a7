/**
 * The search box's input in Text and Regex modes (issue 35): a real <input> (the caret, the
 * selection, IME and screen readers stay the browser's) whose text is transparent over an
 * overlay that draws the same text in coloured runs from the tokenizer (filter keys, values,
 * operators, quoted phrases, regexes; errors underlined). The overlay follows the input's
 * horizontal scroll; while an IME composes, the input shows its own text.
 *
 * Completion: a listbox under the box (the input names its active option with
 * aria-activedescendant). ArrowUp/Down move, Enter or Tab accepts, Escape closes it; a click
 * accepts too. With the list closed ArrowDown goes on into the results.
 */
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ClipboardEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import type { FilterField, QueryMode } from '../../core/query/types';
import type { Span } from './query-analysis';
import {
  applyCompletion,
  completeQuery,
  type Completion,
  type CompletionItem,
  type CompletionSources,
} from './query-complete';
import { querySpans } from './query-spans';
import './query.css';

export interface QueryInputProps {
  value: string;
  onChange: (value: string) => void;
  inputRef: RefObject<HTMLInputElement | null>;
  placeholder: string;
  maxLength: number;
  onPaste: (e: ClipboardEvent<HTMLInputElement>) => void;
  /** ArrowDown with the list closed: into the results. */
  onArrowDown: () => void;
  /** Colour and complete the query language (Text and Regex); otherwise a plain box. */
  language: QueryMode | null;
  /** A span the planner refused (underlined like the parser's errors). */
  problemSpan: Span | null;
  sources: CompletionSources;
  loadSource: (field: FilterField) => void;
  /** A value the parent set (a fix, a chip) and where its caret goes: placed once, when it is the value. */
  caretAt: { text: string; caret: number } | null;
  /** The caret while the completion list is open (null when it is closed): the token being completed. */
  onCompleting?: (caret: number | null) => void;
}

/** The completion at the caret, its active option, and the keys that drive it. */
function useCompletion(
  props: QueryInputProps,
  caret: number,
  focused: boolean,
  onAccept: (next: { text: string; caret: number }) => void,
) {
  const { value, language, sources, loadSource } = props;
  const [dismissed, setDismissed] = useState<string | null>(null);
  const here = `${caret}:${value}`;
  const completion = useMemo<Completion | null>(
    () => (language && focused && dismissed !== here ? completeQuery(value, caret, sources) : null),
    [language, focused, dismissed, here, value, caret, sources],
  );
  const items = completion?.items ?? [];
  const listKey = completion
    ? `${completion.kind}:${completion.from}:${items.map((i) => i.label).join()}`
    : '';
  const [chosen, setChosen] = useState({ listKey: '', index: -1 });
  // a new list starts on its first value (after `key:`), or on nothing for a key prefix (Enter searches)
  const active = chosen.listKey === listKey ? chosen.index : completion?.kind === 'value' ? 0 : -1;
  const setActive = (index: number) => setChosen({ listKey, index });
  useEffect(() => {
    if (completion?.loading && completion.field) loadSource(completion.field);
  }, [completion?.loading, completion?.field, loadSource]);

  const accept = (item: CompletionItem) => {
    if (!completion) return;
    onAccept(applyCompletion(value, completion, item));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const open = items.length > 0;
    if (e.key === 'Escape' && completion) {
      e.preventDefault(); // a search box clears itself on Escape
      setDismissed(here);
    } else if (open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      const n = items.length;
      setActive(e.key === 'ArrowDown' ? (active + 1) % n : active <= 0 ? n - 1 : active - 1);
    } else if (open && e.key === 'Enter' && active >= 0) {
      e.preventDefault();
      accept(items[active]);
    } else if (open && e.key === 'Tab' && !e.shiftKey) {
      e.preventDefault();
      accept(items[Math.max(active, 0)]);
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      props.onArrowDown();
    }
  };
  return { completion, items, active, setActive, accept, onKeyDown };
}

/** The coloured copy of the query under the transparent input. */
function Overlay({
  value,
  language,
  problemSpan,
  completingAt,
  runsRef,
}: {
  value: string;
  language: QueryMode;
  problemSpan: Span | null;
  completingAt: number | null;
  runsRef: RefObject<HTMLSpanElement | null>;
}) {
  const spans = useMemo(
    () => querySpans(value, language, problemSpan, completingAt),
    [value, language, problemSpan, completingAt],
  );
  return (
    <div className="qbox-overlay" aria-hidden="true" data-testid="query-overlay">
      <span className="qbox-runs" ref={runsRef}>
        {spans.map((s) => (
          <span key={s.start} className={`qt qt-${s.kind}`}>
            {value.slice(s.start, s.end)}
          </span>
        ))}
      </span>
    </div>
  );
}

export function QueryInput(props: QueryInputProps) {
  const { value, inputRef, language, caretAt } = props;
  const [caret, setCaret] = useState(value.length);
  const [focused, setFocused] = useState(false);
  const [composing, setComposing] = useState(false);
  const runsRef = useRef<HTMLSpanElement>(null);
  /** Where the caret goes once an accepted completion is the value. */
  const pending = useRef<number | null>(null);
  const id = useId();
  const listId = `${id}-list`;
  const { completion, items, active, setActive, accept, onKeyDown } = useCompletion(
    props,
    caret,
    focused,
    (next) => {
      pending.current = next.caret;
      props.onChange(next.text);
    },
  );

  /** The overlay follows the input's own horizontal scroll. */
  const syncScroll = useCallback(() => {
    const input = inputRef.current;
    if (input && runsRef.current) runsRef.current.style.transform = `translateX(${-input.scrollLeft}px)`;
  }, [inputRef]);
  const readCaret = () => {
    const input = inputRef.current;
    if (input) setCaret(input.selectionEnd ?? input.value.length);
    requestAnimationFrame(syncScroll);
  };
  // a value set from here (a completion) or from outside (a fix, a chip) puts the caret where it asked
  useLayoutEffect(() => {
    const input = inputRef.current;
    let at = pending.current;
    pending.current = null;
    if (at === null && caretAt && caretAt.text === value) at = caretAt.caret;
    if (input && at !== null && input.value === value) {
      input.setSelectionRange(at, at);
      setCaret(at);
    }
    syncScroll();
  }, [value, caretAt, inputRef, syncScroll]);

  const open = items.length > 0 || !!completion?.loading;
  const { onCompleting } = props;
  const completingAt = open ? caret : null;
  useEffect(() => onCompleting?.(completingAt), [onCompleting, completingAt]);
  return (
    <div className={`qbox${language ? ' coloured' : ''}${composing ? ' composing' : ''}`}>
      {language && (
        <Overlay
          value={value}
          language={language}
          problemSpan={props.problemSpan}
          completingAt={completingAt}
          runsRef={runsRef}
        />
      )}
      <input
        ref={inputRef}
        type="search"
        aria-label="Search"
        data-testid="search-input"
        placeholder={props.placeholder}
        value={value}
        spellCheck={false}
        autoComplete="off"
        maxLength={props.maxLength}
        aria-autocomplete={language ? 'list' : undefined}
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open && active >= 0 ? `${id}-opt-${active}` : undefined}
        onPaste={props.onPaste}
        onChange={(e) => {
          setCaret(e.target.selectionEnd ?? e.target.value.length);
          props.onChange(e.target.value);
        }}
        onSelect={readCaret}
        onScroll={syncScroll}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onCompositionStart={() => setComposing(true)}
        onCompositionEnd={() => setComposing(false)}
        onKeyDown={onKeyDown}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          aria-label="Suggestions"
          className="qbox-list"
          data-testid="query-completions"
        >
          {completion?.loading && items.length === 0 && (
            <li className="qbox-option muted" aria-disabled="true">
              Reading the repository…
            </li>
          )}
          {items.map((item, i) => (
            <li
              key={item.label}
              id={`${id}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              className={`qbox-option${i === active ? ' active' : ''}`}
              onMouseDown={(e) => e.preventDefault()} // keep the focus (and the caret) in the box
              onMouseMove={() => i !== active && setActive(i)}
              onClick={() => accept(item)}
            >
              <span className="qbox-label">{item.label}</span>
              {item.detail && <span className="qbox-detail">{item.detail}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
