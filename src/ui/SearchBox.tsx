/**
 * The search box: the typed text (the draft) lives here, so a keystroke re-renders the box and
 * not the results list beside it (a keystroke re-rendered every row of a long list: 20-50 ms
 * input tasks); the query follows the draft after a short pause (useDebouncedDraft), and the
 * draft follows the query back (back/forward, a link). The options passed as children stay as
 * they are while the draft changes.
 *
 * In Text and Regex modes the box reads the query language (issue 35, query/QueryInput.tsx):
 * coloured filters, completion, and the query's problem under it with buttons that fix it; a
 * fix or a "+ Filter" choice (through `apiRef`) writes the query as typing would.
 */
import { useImperativeHandle, useState, type ReactNode, type RefObject } from 'react';
import { MAX_QUERY_CHARS } from '../core/limits';
import type { FilterField } from '../core/query/types';
import type { QueryProblem } from './query/query-analysis';
import type { CompletionSources } from './query/query-complete';
import { hasFilter } from './query/query-spans';
import { QueryInput } from './query/QueryInput';
import { QueryProblemView } from './query/QueryProblem';
import { clippedMessage, clipText, type ViewState } from './url-state';
import type { UpdateView } from './use-view-state';
import { useDebouncedDraft } from './views/use-tool';

/** What the options beside the box may do to it ("+ Filter"). */
export interface SearchBoxApi {
  /** Set the query (the address follows after the typing pause), focus the box, the caret at `caret`. */
  write: (text: (draft: string) => { text: string; caret: number }) => void;
}

function placeholderOf(mode: ViewState['mode']): string {
  if (mode === 'regex') return 'Regex, e.g. fn\\w+ lang:rust';
  if (mode === 'semantic' || mode === 'hybrid')
    return 'A question, e.g. where do we refresh an expired session';
  if (mode === 'ranked') return 'Words or identifiers, e.g. user by id';
  return 'Search, e.g. total lang:go';
}

/** The query language's side of the box (SearchPanel's useQueryBox). */
export interface SearchBoxQuery {
  /** What is wrong with `view.q` (shown while the draft is the query). */
  problem: QueryProblem | null;
  sources: CompletionSources;
  loadSource: (field: FilterField) => void;
  apiRef: RefObject<SearchBoxApi | null>;
}

export function SearchBox({
  view,
  update,
  inputRef,
  onArrowDown,
  query: { problem, sources, loadSource, apiRef },
  children,
}: {
  view: ViewState;
  update: UpdateView;
  inputRef: RefObject<HTMLInputElement | null>;
  /** ArrowDown in the box: into the results. */
  onArrowDown: () => void;
  query: SearchBoxQuery;
  children: ReactNode;
}) {
  const ranked = view.mode === 'ranked' || view.mode === 'semantic' || view.mode === 'hybrid';
  // Typing updates the URL after a short pause (and follows it back/forward); the search follows the URL.
  const [draft, setDraft] = useDebouncedDraft(view.q, (q) => update({ q }), 150);
  /** The length of a query typed or pasted over MAX_QUERY_CHARS (0: none), for its message. */
  const [tooLong, setTooLong] = useState(0);
  const [caretAt, setCaretAt] = useState<{ text: string; caret: number } | null>(null);
  const write = (next: { text: string; caret: number }) => {
    const text = clipText(next.text);
    setCaretAt({ text, caret: Math.min(next.caret, text.length) });
    // the query follows after the pause, as typing does: setting it here could come back after more typing and undo it
    setDraft(text);
    inputRef.current?.focus();
  };
  useImperativeHandle(apiRef, () => ({ write: (make) => write(make(draft)) }));
  // a token still being completed (`lang:` with the list of languages open) is not an error yet
  const [completingAt, setCompletingAt] = useState<number | null>(null);
  const span = problem?.span;
  const completing =
    !!span && completingAt !== null && completingAt >= span.start && completingAt <= span.end;
  const shownProblem = problem && draft === view.q && !completing ? problem : null;
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
        <QueryInput
          value={draft}
          inputRef={inputRef}
          placeholder={placeholderOf(view.mode)}
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
          onChange={(v) => {
            if (v.length > MAX_QUERY_CHARS) setTooLong(v.length);
            else if (v.length < MAX_QUERY_CHARS) setTooLong(0);
            setDraft(clipText(v));
          }}
          onArrowDown={onArrowDown}
          language={ranked ? null : view.mode === 'regex' ? 'regex' : 'literal'}
          problemSpan={shownProblem?.span ?? null}
          sources={sources}
          loadSource={loadSource}
          caretAt={caretAt}
          onCompleting={setCompletingAt}
        />
      </div>
      {shownProblem && <QueryProblemView text={view.q} problem={shownProblem} onFix={write} />}
      {ranked && hasFilter(draft) && (
        <p className="query-note" role="status" data-testid="query-filters-unsupported">
          Filters such as lang: and file: work in Text and Regex modes; this mode reads them as words.
        </p>
      )}
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
