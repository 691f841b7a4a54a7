/**
 * One line of repository text, coloured and with every hit in a <mark>. Text is only ever
 * rendered as React text children: repository content never becomes markup. Plain runs are
 * bare text nodes and only coloured runs and hits get an element: every element costs style
 * and layout time in the frame that shows a batch of results.
 */
import { Fragment, memo, type ReactNode } from 'react';
import type { HitRange } from '../core/grep/types';
import type { LineSpans } from '../worker/protocol';
import { segmentLine, tokenizeLine, type Language, type Token } from './highlight';
import { cutColumn } from './blocks';

/**
 * `from`: show the line from this column on (tokenized whole, so colours are right after the cut);
 * `to`: and only up to this column (a results row shows what its pane can hold, not a whole
 * 1,000-character preview: the browser shapes every character it is given).
 */
/**
 * `markClass`: a class for the marks (the viewer marks the name under the cursor apart from search hits).
 * `caret`: the viewer's caret at this column (whole lines only): an empty element between the
 * characters, so it sits exactly where the text puts it (tabs, wide characters) with no measuring.
 */
export const CodeText = memo(function CodeText({
  text,
  lang,
  hits,
  from = 0,
  to,
  markClass,
  spans,
  caret,
}: {
  text: string;
  lang: Language;
  /** The line's exact colouring from the engine (its grammar's highlight queries); absent: by language family. */
  spans?: LineSpans;
  hits?: readonly HitRange[] | null;
  from?: number;
  to?: number;
  markClass?: string;
  caret?: number;
}) {
  let tokens: Token[] = spans
    ? spans.map(([start, end, kind]) => ({ start, end, kind }))
    : tokenizeLine(text, lang);
  let shownHits: readonly HitRange[] = hits ?? [];
  const end = to === undefined ? text.length : cutColumn(text, Math.max(from, to));
  if (from > 0 || end < text.length) {
    tokens = tokens
      .filter((t) => t.end > from && t.start < end)
      .map((t) => ({
        start: Math.max(t.start, from) - from,
        end: Math.min(t.end, end) - from,
        kind: t.kind,
      }));
    shownHits = shownHits
      .filter(([s, e]) => (e > from || s >= from) && s < end)
      .map(([s, e]) => [Math.max(s, from) - from, Math.min(e, end) - from] as HitRange);
  }
  const pieces = segmentLine(from > 0 || end < text.length ? text.slice(from, end) : text, tokens, shownHits);
  const caretAt = caret !== undefined && from === 0 ? Math.max(0, Math.min(caret, end)) : -1;
  // where each segment starts in the line (the caret goes into the one it falls in)
  const starts: number[][] = [];
  let shown = 0;
  for (const piece of pieces) {
    starts.push(
      piece.segments.map((seg) => {
        shown += seg.text.length;
        return shown - seg.text.length;
      }),
    );
  }
  /** The segment's text, with the caret inside it when it falls there (before its first character, or within). */
  const withCaret = (t: string, start: number): ReactNode => {
    const at = caretAt - start;
    if (at < 0 || at >= t.length) return t;
    return (
      <>
        {t.slice(0, at)}
        <CaretMark />
        {t.slice(at)}
      </>
    );
  };
  return (
    <>
      {pieces.map((piece, i) => {
        const inner = piece.segments.map((s, j) =>
          s.kind === 'plain' ? (
            <Fragment key={j}>{withCaret(s.text, starts[i][j])}</Fragment>
          ) : (
            <span key={j} className={`tk-${s.kind}`}>
              {withCaret(s.text, starts[i][j])}
            </span>
          ),
        );
        return piece.mark ? (
          <mark key={i} className={markClass}>
            {inner}
          </mark>
        ) : (
          <Fragment key={i}>{inner}</Fragment>
        );
      })}
      {caretAt >= 0 && caretAt >= shown && <CaretMark />}
    </>
  );
});

/** The caret: no text and no width (the line's text and its columns stay exactly as they are). */
function CaretMark() {
  return <span className="caret" data-testid="caret" aria-hidden="true" />;
}
