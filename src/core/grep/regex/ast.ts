/** The regex AST produced by parser.ts (flags already resolved into the nodes). */
import type { CharSet } from './charset';

export type AssertKind =
  /** `^` and `\A`: start of a line. */
  | 'bol'
  /** `$`: end of a line, also before the '\r' of a "\r\n". */
  | 'eol'
  /** `\z`: strict end of a line (before '\n' or at the end of the text). */
  | 'eot'
  /** `\b` (ASCII). */
  | 'word'
  /** `\B` (ASCII). */
  | 'notWord';

export type Node =
  | { type: 'empty' }
  /** One code point; `fold` = matched case-insensitively. */
  | { type: 'char'; cp: number; fold: boolean }
  /** One code point from a set (classes, `.`, \d, \pL, case-folded chars after simplification). */
  | { type: 'set'; set: CharSet }
  | { type: 'assert'; kind: AssertKind }
  | { type: 'concat'; items: Node[] }
  | { type: 'alt'; branches: Node[] }
  | { type: 'repeat'; min: number; max: number; greedy: boolean; body: Node };
