/**
 * The search box: the typed text (the draft) lives here, so a keystroke re-renders the box and
 * not the results list beside it (a keystroke re-rendered every row of a long list: 20-50 ms
 * input tasks); the query follows the draft after a short pause (useDebouncedDraft), and the
 * draft follows the query back (back/forward, a link). The options passed as children stay as
 * they are while the draft changes.
 */
import { useState, type ReactNode, type RefObject } from 'react';
import { MAX_QUERY_CHARS } from '../core/limits';
import { clippedMessage, clipText, type ViewState } from './url-state';
import type { UpdateView } from './use-view-state';
import { useDebouncedDraft } from './views/use-tool';

export function SearchBox({
  view,
  update,
  inputRef,
  onArrowDown,
  children,
}: {
  view: ViewState;
  update: UpdateView;
  inputRef: RefObject<HTMLInputElement | null>;
  /** ArrowDown in the box: into the results. */
  onArrowDown: () => void;
  children: ReactNode;
}) {
  const ranked = view.mode === 'ranked' || view.mode === 'semantic' || view.mode === 'hybrid';
  // Typing updates the URL after a short pause (and follows it back/forward); the search follows the URL.
  const [draft, setDraft] = useDebouncedDraft(view.q, (q) => update({ q }), 150);
  /** The length of a query typed or pasted over MAX_QUERY_CHARS (0: none), for its message. */
  const [tooLong, setTooLong] = useState(0);
  return (
    <form
      className="search-form"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        update({ q: draft });
      }}
    >
      <div className="search-row">
        <input
          ref={inputRef}
          type="search"
          aria-label="Search"
          data-testid="search-input"
          placeholder={
            view.mode === 'regex'
              ? 'Regex (RE2 syntax)'
              : view.mode === 'semantic' || view.mode === 'hybrid'
                ? 'A question, e.g. where do we refresh an expired session'
                : ranked
                  ? 'Words or identifiers, e.g. user by id'
                  : 'Search text'
          }
          value={draft}
          spellCheck={false}
          autoComplete="off"
          // The cap, said when crossed: the browser cuts a paste to maxLength, onPaste says by how much.
          maxLength={MAX_QUERY_CHARS}
          onPaste={(e) => {
            const box = e.currentTarget;
            const length =
              box.value.length -
              ((box.selectionEnd ?? 0) - (box.selectionStart ?? 0)) +
              e.clipboardData.getData('text/plain').length;
            if (length > MAX_QUERY_CHARS) setTooLong(length);
          }}
          onChange={(e) => {
            const v = e.target.value;
            if (v.length > MAX_QUERY_CHARS) setTooLong(v.length);
            else if (v.length < MAX_QUERY_CHARS) setTooLong(0);
            setDraft(clipText(v));
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') {
              e.preventDefault();
              onArrowDown();
            }
          }}
        />
      </div>
      {tooLong > 0 ? (
        <p className="inline-error" role="alert" data-testid="query-too-long">
          {clippedMessage('The search query', tooLong)}
        </p>
      ) : (
        draft.length >= MAX_QUERY_CHARS && (
          // typing stops at the cap (maxLength): say why
          <p className="inline-error" role="status" data-testid="query-too-long">
            The search query is at its limit of {MAX_QUERY_CHARS.toLocaleString('en-US')} characters.
          </p>
        )
      )}
      {children}
    </form>
  );
}
