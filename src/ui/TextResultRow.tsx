/**
 * One row of Text and Regex results in the virtualised list: a file's header (its matches
 * shown or hidden), a gap between runs of lines, a hit line (opens the file there) or a line
 * of context around the hits.
 */
import type { CSSProperties } from 'react';
import { cutColumn, ROW_CHARS } from './blocks';
import { CodeText } from './CodeText';
import { languageOf } from './highlight';
import type { Row } from './result-stream';
import { FileIcon } from './shell/FileIcon';
import { visibleText } from './visible-text';
import { VisibleText } from './VisibleText';

export function TextResultRow({
  row,
  style,
  nav,
  active,
  collapsed,
  onFocus,
  onToggle,
  onOpen,
}: {
  row: Row;
  style: CSSProperties;
  /** The row's place among the focusable rows (file headers and hits). */
  nav: number;
  /** The focused row's place, -1: none yet. */
  active: number;
  /** A file header's matches are hidden. */
  collapsed: boolean;
  onFocus: () => void;
  onToggle: (path: string) => void;
  onOpen: (row: Row) => void;
}) {
  const focusProps = {
    'data-nav': nav,
    tabIndex: nav === Math.max(active, 0) ? 0 : -1,
    onFocus,
  };
  if (row.kind === 'file') {
    return (
      <button
        type="button"
        className={`result-file${nav === active ? ' active' : ''}`}
        style={style}
        data-testid="result-file"
        data-path={row.path}
        title={`${visibleText(row.path)} — ${collapsed ? 'show' : 'hide'} its matches`}
        aria-expanded={!collapsed}
        {...focusProps}
        onClick={() => onToggle(row.path)}
      >
        <svg
          className="result-chevron"
          viewBox="0 0 10 10"
          width="10"
          height="10"
          aria-hidden="true"
          focusable="false"
        >
          <path d={collapsed ? 'M3 1.5l4 3.5-4 3.5z' : 'M1.5 3l3.5 4 3.5-4z'} />
        </svg>
        <FileIcon path={row.path} />
        <span className="result-path">
          <bdi dir="ltr">
            <VisibleText text={row.path} />
          </bdi>
        </span>
        <span className="result-count">{row.count}</span>
      </button>
    );
  }
  if (row.kind === 'gap') return <div className="result-gap" style={style} aria-hidden="true" />;
  const lang = languageOf(row.path);
  const content = (
    <>
      <span className="result-ln">{row.line}</span>
      {/* context lines are muted plain text: colouring only the hit lines keeps a batch of
      results cheap to lay out, and the eye on the hits */}
      <span className="result-text">
        {/* a hit row shown from near its first hit: say that the line goes on to the left */}
        {row.from ? (
          <span className="result-more" title={`from column ${row.from + 1}`}>
            …
          </span>
        ) : null}
        {row.ranges ? (
          <CodeText
            text={row.text}
            lang={lang}
            hits={row.ranges}
            from={row.shift}
            to={row.shift + ROW_CHARS}
          />
        ) : (
          row.text.slice(0, cutColumn(row.text, ROW_CHARS))
        )}
      </span>
    </>
  );
  return row.ranges ? (
    <button
      type="button"
      className={`result-line hit${nav === active ? ' active' : ''}`}
      style={style}
      data-testid="result-hit"
      data-hit={row.hit}
      data-path={row.path}
      data-line={row.line}
      {...focusProps}
      onClick={() => onOpen(row)}
    >
      {content}
    </button>
  ) : (
    <div className="result-line context" style={style} data-testid="result-context">
      {content}
    </div>
  );
}
