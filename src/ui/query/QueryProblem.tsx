/**
 * What is wrong with the query, under the box (issue 35): the message, the query with the piece
 * at fault marked and a caret under it at the error's column, and the suggestion as buttons that
 * apply it ("Use lang:", "Add type:commit", "Search "OR" as text"), or as a hint when none does.
 */
import type { QueryFix, QueryProblem } from './query-analysis';
import './query.css';

/** Characters of the query shown around the span when it is long. */
const AROUND = 28;

export function queryWindow(text: string, start: number, end: number) {
  const from = Math.max(0, start - AROUND);
  const to = Math.min(text.length, Math.max(end, start + 1) + AROUND);
  const lead = from > 0 ? '…' : '';
  return {
    before: lead + text.slice(from, start),
    at: text.slice(start, end),
    after: text.slice(end, to) + (to < text.length ? '…' : ''),
    /** Spaces before the caret line's ^ (the column in the window). */
    pad: lead.length + start - from,
  };
}

export function QueryProblemView({
  text,
  problem,
  onFix,
}: {
  text: string;
  problem: QueryProblem;
  onFix: (fix: QueryFix) => void;
}) {
  const span = problem.span;
  const w = span ? queryWindow(text, span.start, span.end) : null;
  return (
    <div className="query-problem" role="alert" data-testid="query-error">
      <p className="query-problem-message">
        {problem.message}
        {problem.column !== null && !/\bcolumn\b/.test(problem.message) && (
          <span className="query-problem-column"> (column {problem.column})</span>
        )}
      </p>
      {w && (
        <pre className="query-problem-where" aria-hidden="true" data-testid="query-error-where">
          {w.before}
          <span className="query-problem-span">{w.at || ' '}</span>
          {w.after}
          {'\n'}
          {' '.repeat(w.pad)}
          <span className="query-problem-caret">{'^'.repeat(Math.max(1, w.at.length))}</span>
        </pre>
      )}
      {(problem.fixes.length > 0 || problem.hint) && (
        <div className="query-problem-fixes">
          {problem.fixes.map((f) => (
            <button
              key={f.text}
              type="button"
              className="query-fix"
              data-testid="query-fix"
              title={f.text}
              onClick={() => onFix(f)}
            >
              {f.label}
            </button>
          ))}
          {problem.hint && <span className="query-problem-hint">{problem.hint}</span>}
        </div>
      )}
    </div>
  );
}
