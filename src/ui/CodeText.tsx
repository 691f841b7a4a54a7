/**
 * One line of repository text, coloured and with every hit in a <mark>. Text is only ever
 * rendered as React text children: repository content never becomes markup. Plain runs are
 * bare text nodes and only coloured runs and hits get an element: every element costs style
 * and layout time in the frame that shows a batch of results.
 */
import { Fragment, memo } from 'react';
import type { HitRange } from '../core/grep/types';
import type { LineSpans } from '../worker/protocol';
import { segmentLine, tokenizeLine, type Language, type Token } from './highlight';
import { cutColumn } from './blocks';

/**
 * `from`: show the line from this column on (tokenized whole, so colours are right after the cut);
 * `to`: and only up to this column (a results row shows what its pane can hold, not a whole
 * 1,000-character preview: the browser shapes every character it is given).
 */
/** `markClass`: a class for the marks (the viewer marks the name under the cursor apart from search hits). */
export const CodeText = memo(function CodeText({
  text,
  lang,
  hits,
  from = 0,
  to,
  markClass,
  spans,
}: {
  text: string;
  lang: Language;
  /** The line's exact colouring from the engine (its grammar's highlight queries); absent: by language family. */
  spans?: LineSpans;
  hits?: readonly HitRange[] | null;
  from?: number;
  to?: number;
  markClass?: string;
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
  return (
    <>
      {pieces.map((piece, i) => {
        const inner = piece.segments.map((s, j) =>
          s.kind === 'plain' ? (
            <Fragment key={j}>{s.text}</Fragment>
          ) : (
            <span key={j} className={`tk-${s.kind}`}>
              {s.text}
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
    </>
  );
});
