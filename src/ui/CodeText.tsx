/**
 * One line of repository text, coloured and with every hit in a <mark>. Text is only ever
 * rendered as React text children: repository content never becomes markup.
 */
import { memo } from 'react';
import type { HitRange } from '../core/grep/types';
import { segmentLine, tokenizeLine, type Language } from './highlight';

export const CodeText = memo(function CodeText({ text, lang, hits }: { text: string; lang: Language; hits?: readonly HitRange[] | null }) {
  const pieces = segmentLine(text, tokenizeLine(text, lang), hits ?? []);
  return (
    <>
      {pieces.map((piece, i) => {
        const inner = piece.segments.map((s, j) =>
          s.kind === 'plain' ? (
            <span key={j}>{s.text}</span>
          ) : (
            <span key={j} className={`tk-${s.kind}`}>
              {s.text}
            </span>
          ),
        );
        return piece.mark ? <mark key={i}>{inner}</mark> : <span key={i}>{inner}</span>;
      })}
    </>
  );
});
