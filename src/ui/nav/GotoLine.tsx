/**
 * The caret's place ("Ln 12, Col 5") and Go to line in the viewer's bar. Ctrl+G (as in VS Code)
 * puts the focus in the field: a line, or `line:column`, then Enter jumps there (a jump: Back
 * returns) and gives the focus back to the code; Esc gives it back without moving.
 */
import { useState, type RefObject } from 'react';
import { parseLineColumn } from './caret';

export function GotoLine({
  lineCount,
  caret,
  inputRef,
  onGo,
  onDone,
}: {
  lineCount: number;
  /** The caret's line and 0-based column, or null when it is not shown. */
  caret: { line: number; col: number } | null;
  inputRef: RefObject<HTMLInputElement | null>;
  /** Jump to a line and a 1-based column (0: none). */
  onGo: (line: number, col: number) => void;
  /** Esc or a jump: the focus goes back to the code. */
  onDone: () => void;
}) {
  const [value, setValue] = useState('');
  const range = lineCount ? `1–${lineCount}` : 'a line';
  return (
    <form
      className="goto"
      onSubmit={(e) => {
        e.preventDefault();
        const at = parseLineColumn(value);
        setValue('');
        if (!at) return;
        onGo(Math.min(at.line, lineCount || at.line), at.col);
        onDone();
      }}
    >
      {caret && (
        <span className="caret-pos" data-testid="caret-position" title="The caret's line and column">
          Ln {caret.line}, Col {caret.col + 1}
        </span>
      )}
      <input
        ref={inputRef}
        type="text"
        inputMode="numeric"
        aria-label="Go to line"
        aria-keyshortcuts="Control+G"
        title={`Go to line (Ctrl+G): ${range}, or line:column`}
        placeholder="Line"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return;
          e.preventDefault();
          setValue('');
          onDone();
        }}
      />
      <button type="submit">Go</button>
    </form>
  );
}
