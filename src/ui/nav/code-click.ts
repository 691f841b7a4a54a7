/**
 * Which name a click in the viewer landed on: the caret position under the pointer, turned
 * into a column of the line's text (the line's spans hold exactly its text, so offsets add up).
 */
import { identifierAt } from '../../core/nav/identifier';

interface CaretDoc {
  caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null;
  caretRangeFromPoint?: (x: number, y: number) => Range | null;
}

function caretAt(x: number, y: number): { node: Node; offset: number } | null {
  const doc = document as unknown as CaretDoc;
  if (doc.caretPositionFromPoint) {
    const p = doc.caretPositionFromPoint(x, y);
    return p ? { node: p.offsetNode, offset: p.offset } : null;
  }
  const r = doc.caretRangeFromPoint?.(x, y);
  return r ? { node: r.startContainer, offset: r.startOffset } : null;
}

/** The column of `node`+`offset` inside `container`'s text, or -1 when the node is outside it. */
export function columnIn(container: Node, node: Node, offset: number): number {
  if (!container.contains(node)) return -1;
  let col = 0;
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (t === node) return col + offset;
    col += t.textContent?.length ?? 0;
  }
  // the caret is on an element boundary (offset counts child nodes)
  if (node.nodeType === Node.ELEMENT_NODE) {
    let c = 0;
    for (let i = 0; i < offset && i < node.childNodes.length; i++)
      c += node.childNodes[i].textContent?.length ?? 0;
    const before = document.createRange();
    before.setStart(container, 0);
    before.setEnd(node, 0);
    return before.toString().length + c;
  }
  return -1;
}

/** The identifier clicked at (x, y) in a line whose code is in `code` and whose text is `text`. */
export function identifierAtPoint(
  code: HTMLElement,
  text: string,
  x: number,
  y: number,
): { name: string; start: number; end: number } | null {
  const caret = caretAt(x, y);
  if (!caret) return null;
  const col = columnIn(code, caret.node, caret.offset);
  if (col < 0) return null;
  const hit = identifierAt(text, col);
  // a click past the end of a word (in the space after it) is not on it
  if (hit && col === hit.end && col < text.length && !/[\p{L}\p{N}_$]/u.test(text[col - 1] ?? ''))
    return null;
  return hit;
}

/** The column (UTF-16, 0-based) of the line `code` holds under (x, y), or -1 off its text. */
export function columnAtPoint(code: HTMLElement, x: number, y: number): number {
  const caret = caretAt(x, y);
  return caret ? columnIn(code, caret.node, caret.offset) : -1;
}

/** A DOM range over columns [start, end) of the line whose code is in `code` (null when out of its text). */
export function rangeOfColumns(code: HTMLElement, start: number, end: number): Range | null {
  const range = document.createRange();
  let pos = 0;
  let started = false;
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const len = t.textContent?.length ?? 0;
    if (!started && start <= pos + len) {
      range.setStart(t, start - pos);
      started = true;
    }
    if (started && end <= pos + len) {
      range.setEnd(t, end - pos);
      return range;
    }
    pos += len;
  }
  return null;
}
