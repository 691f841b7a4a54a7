/** A symbol's kind as a small coloured letter (function, class, method, ...), named for screen readers. */
import type { ChunkRef } from '../../worker/protocol';

type Kind = ChunkRef['chunkType'];

const LETTER: Partial<Record<Kind, string>> = {
  function: 'ƒ',
  method: 'm',
  class: 'C',
  interface: 'I',
  type: 'T',
  enum: 'E',
  const: 'K',
  component: '◇',
  struct: 'S',
  trait: 'Tr',
  impl: 'Im',
  module: 'M',
  section: '#',
  rule: '{}',
  key: 'k',
  element: '<>',
  macro: '#d',
};

export function SymbolKind({ kind }: { kind: Kind }) {
  return (
    <span className={`sym-kind sym-${kind}`} title={kind} aria-label={kind} role="img">
      {LETTER[kind] ?? '·'}
    </span>
  );
}
