/**
 * One line of repository text, coloured and with every hit in a <mark>. Text is only ever
 * rendered as React text children: repository content never becomes markup. Plain runs are
 * bare text nodes and only coloured runs and hits get an element: every element costs style
 * and layout time in the frame that shows a batch of results.
 */
import { Fragment, memo } from 'react';
import type { HitRange } from '../core/grep/types';
import { segmentLine, tokenizeLine, type Language } from './highlight';

export const CodeText = memo(function CodeText({ text, lang, hits }: { text: string; lang: Language; hits?: readonly HitRange[] | null }) {
  const pieces = segmentLine(text, tokenizeLine(text, lang), hits ?? []);
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
        return piece.mark ? <mark key={i}>{inner}</mark> : <Fragment key={i}>{inner}</Fragment>;
      })}
    </>
  );
});
