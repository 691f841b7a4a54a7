/**
 * Stylesheet chunks (.css, and .scss/.less through the CSS grammar, which has no grammar of
 * its own that loads in web-tree-sitter; see stylesheetSource):
 *   - each rule set -> 'rule' named by its selector text (whitespace collapsed, cut to 80
 *     characters with a trailing `…`); rule sets nested in rule sets (SCSS/Less, CSS nesting)
 *     are chunks too, inside their parent's;
 *   - an at-rule with a block (@media, @supports, @container, @layer, @font-face, @page,
 *     SCSS @if/@each, ...) -> 'rule' named by its prelude as written (`@media (max-width:
 *     600px)`), a container of the rules in it; @keyframes -> 'rule' `@keyframes spin`
 *     (its from/to blocks are not chunks);
 *   - SCSS `@mixin name(...)` and `@function name(...)` -> 'function' named `name`;
 *   - at-rules without a block (@import, @use, @charset, variables) are not chunks.
 * Comments (block, and `//` in SCSS/Less) directly above attach.
 */
import type { Node } from 'web-tree-sitter';
import { type ChunkCollector, type Siblings, siblingsOf } from './collect';

export const CSS_ATTACH = { comments: new Set(['comment', 'js_comment']), always: new Set<string>() };

const NAME_CAP = 80;
const AT_BLOCKS = new Set(['media_statement', 'supports_statement', 'scope_statement', 'at_rule']);

/** `original` is the file as read: names come from it, the tree from its sanitized copy (same length). */
export function chunkCss(root: Node, c: ChunkCollector, original: string): void {
  statements(siblingsOf(root), c, original);
}

function statements(siblings: Siblings, c: ChunkCollector, text: string): void {
  siblings.nodes.forEach((node, index) => {
    const at = { siblings, index };
    switch (node.type) {
      case 'rule_set': {
        const selectors = node.namedChildren.find((n) => n.type === 'selectors');
        const block = node.namedChildren.find((n) => n.type === 'block');
        if (!selectors || !block) return;
        c.add(node, cap(collapse(slice(text, selectors))), 'rule', at);
        statements(siblingsOf(block), c, text);
        return;
      }
      case 'keyframes_statement': {
        const list = node.namedChildren.find((n) => n.type === 'keyframe_block_list');
        if (list) c.add(node, cap(collapse(text.slice(node.startIndex, list.startIndex))), 'rule', at);
        return;
      }
      case 'ERROR':
        statements(siblingsOf(node), c, text);
        return;
    }
    if (!AT_BLOCKS.has(node.type)) return;
    const block = node.namedChildren.find((n) => n.type === 'block');
    if (!block) return;
    const prelude = collapse(text.slice(node.startIndex, block.startIndex));
    const mixin = /^@(mixin|function)\s+([\w-]+)/.exec(prelude);
    if (mixin) c.add(node, mixin[2], 'function', at);
    else if (prelude.startsWith('@')) c.add(node, cap(prelude), 'rule', at);
    statements(siblingsOf(block), c, text);
  });
}

function slice(text: string, node: Node): string {
  return text.slice(node.startIndex, node.endIndex);
}

function collapse(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

function cap(s: string): string {
  return s.length > NAME_CAP ? s.slice(0, NAME_CAP - 1) + '…' : s;
}

/**
 * What the CSS grammar parses for a file: .css as it is; .scss and .less with the syntax the
 * CSS grammar trips on replaced by CSS-shaped text OF THE SAME LENGTH (every line and column
 * stays where it was, and names are cut from the original text):
 *   - `$var` -> `-var` (SCSS); `@var` inside parentheses -> `-var` (Less mixin parameters);
 *   - `#{...}` (SCSS) and `@{...}` (Less) interpolation -> `__..._`, an identifier piece;
 *   - `%placeholder` selectors -> `.placeholder`;
 *   - top-level statements without a block (`$x: ...;`, Less `@x: ...;`, `@use ...;`,
 *     `@import ...;`) -> blanks: the grammar takes no declarations outside a block nor
 *     at-rules it does not know, and would swallow what follows. None of them is a chunk.
 * Strings and comments are left alone.
 */
export function stylesheetSource(path: string, text: string): string {
  const scss = path.endsWith('.scss');
  if (!scss && !path.endsWith('.less')) return text;
  const out = text.split('');
  let depth = 0;
  let parens = 0;
  let atStatementStart = true;
  const interpolations: number[] = []; // brace depths at which an interpolation opened
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === '"' || ch === "'") {
      i = skipString(text, i);
      atStatementStart = false;
      continue;
    }
    if (ch === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (ch === '/' && next === '/' && text[i - 1] !== ':') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end - 1;
      continue;
    }
    if ((ch === '#' || (!scss && ch === '@')) && next === '{') {
      out[i] = '_';
      out[i + 1] = '_';
      interpolations.push(depth);
      i++;
      continue;
    }
    if (ch === '}' && interpolations.length > 0 && interpolations[interpolations.length - 1] === depth) {
      interpolations.pop();
      out[i] = '_';
      continue;
    }
    if (depth === 0 && parens === 0 && atStatementStart) {
      const end = bareStatementEnd(text, i, scss);
      if (end >= 0) {
        blank(text, out, i, end);
        i = end;
        continue;
      }
    }
    if (ch === '{') {
      depth++;
      atStatementStart = true;
      continue;
    }
    if (ch === '}') {
      depth = Math.max(0, depth - 1);
      atStatementStart = true;
      continue;
    }
    if (ch === ';') {
      atStatementStart = true;
      continue;
    }
    if (ch === '(') parens++;
    else if (ch === ')') parens = Math.max(0, parens - 1);
    if (/\s/.test(ch)) continue;
    atStatementStart = false;
    if (ch === '$' && isIdentStart(next)) out[i] = '-';
    else if (!scss && ch === '@' && parens > 0 && isIdentStart(next)) out[i] = '-';
    else if (ch === '%' && isIdentStart(next) && /[\s,{};]|^$/.test(text[i - 1] ?? '')) out[i] = '.';
  }
  return out.join('');
}

function isIdentStart(ch: string | undefined): boolean {
  return ch !== undefined && /[A-Za-z_-]/.test(ch);
}

/** Where a top-level `$x: ...;` / `@x: ...;` / `@use ...;` statement at `i` ends (its `;`), or -1 for anything else. */
function bareStatementEnd(text: string, i: number, scss: boolean): number {
  const sigil = text[i];
  if (!(sigil === '$' && scss) && sigil !== '@') return -1;
  if (!isIdentStart(text[i + 1])) return -1;
  let parens = 0;
  for (let j = i + 1; j < text.length; j++) {
    const ch = text[j];
    if (ch === '"' || ch === "'") j = skipString(text, j);
    else if (ch === '(') parens++;
    else if (ch === ')') parens--;
    else if (ch === '{' || ch === '}')
      return -1; // a block: a real at-rule
    else if (ch === ';' && parens <= 0) return j;
  }
  return -1;
}

/** Blanks `start..end` inclusive, newlines kept. */
function blank(text: string, out: string[], start: number, end: number): void {
  for (let j = start; j <= end; j++) if (text[j] !== '\n') out[j] = ' ';
}

function skipString(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote || text[i] === '\n') return i;
  }
  return text.length;
}
