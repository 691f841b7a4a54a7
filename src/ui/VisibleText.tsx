/** A repository name or path as text, with its hidden characters shown (visible-text.ts). */
import { visibleParts } from './visible-text';

/** `multiline` keeps newlines (for a <pre>); every other hidden character is shown. */
export function VisibleText({ text, multiline }: { text: string; multiline?: boolean }) {
  const parts = visibleParts(text, { multiline });
  if (parts.length === 1 && !parts[0].hidden) return text;
  return (
    <span className="visible-text">
      {parts.map((p, i) =>
        p.hidden ? (
          <span key={i} className="hidden-char" title={p.hidden}>
            {p.text}
          </span>
        ) : (
          p.text
        ),
      )}
    </span>
  );
}
