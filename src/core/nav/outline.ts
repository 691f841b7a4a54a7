/**
 * A file's outline: its symbol chunks as a tree by range containment (a class holds its
 * methods), in line order. Fallback blocks are left out: they are line ranges, not symbols.
 */
import type { Chunk } from '../chunk/types';
import { nameLine } from './definitions';
import { shortName } from './identifier';
import type { OutlineNode } from './types';

export function outlineOf(chunks: readonly Chunk[], lines: readonly string[] | null): OutlineNode[] {
  const sorted = chunks
    .filter((c) => c.chunkType !== 'block' && c.symbolName)
    .slice()
    // outer first: earlier start, then the longer range
    .sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  const roots: OutlineNode[] = [];
  const stack: OutlineNode[] = [];
  for (const c of sorted) {
    const short = shortName(c.symbolName);
    const node: OutlineNode = {
      name: c.symbolName,
      chunkType: c.chunkType,
      startLine: c.startLine,
      endLine: c.endLine,
      line:
        c.chunkType === 'section' || c.chunkType === 'rule' || c.chunkType === 'key'
          ? c.startLine
          : nameLine(c, short, lines).line,
      children: [],
    };
    while (stack.length && stack[stack.length - 1].endLine < c.startLine) stack.pop();
    // a chunk that starts inside the top one but runs past its end is its sibling, not its child
    while (stack.length && stack[stack.length - 1].endLine < c.endLine) stack.pop();
    (stack.length ? stack[stack.length - 1].children : roots).push(node);
    stack.push(node);
  }
  return roots;
}

/** The outline's nodes whose range contains `line`, outermost first (the breadcrumbs). */
export function pathAt(outline: readonly OutlineNode[], line: number): OutlineNode[] {
  const out: OutlineNode[] = [];
  let level: readonly OutlineNode[] = outline;
  for (;;) {
    const hit = level.find((n) => n.startLine <= line && line <= n.endLine);
    if (!hit) return out;
    out.push(hit);
    level = hit.children;
  }
}
