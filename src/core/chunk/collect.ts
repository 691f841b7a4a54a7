/**
 * Shared by the tree-sitter extractors: turns a syntax node into a Chunk, pulling the start
 * up to the doc comments, decorators and attributes attached above it.
 *
 * Siblings are walked through the parent's `children` array, never `previousSibling`:
 * tree-sitter finds a previous sibling by scanning the parent from its first child, which
 * is quadratic on files with thousands of top-level declarations.
 */
import type { Node } from 'web-tree-sitter';
import type { ParseBudget } from './budget';
import type { Chunk, ChunkType } from './types';

/** Which sibling nodes a language attaches to the declaration below them. */
export interface AttachRules {
  /** Comment node types: attached only when directly above (no blank line) and alone on their line. */
  comments: ReadonlySet<string>;
  /** Decorator/attribute node types: always attached, blank lines or not. */
  always: ReadonlySet<string>;
}

/**
 * The children of one container, and where that container sits among its own siblings.
 * `outer` lets a comment that tree-sitter placed just before a container (Python puts the
 * comment above a class's first method before the class's `block`) still attach.
 */
export interface Siblings {
  nodes: Node[];
  outer?: { siblings: Siblings; index: number };
}

export function siblingsOf(container: Node, outer?: { siblings: Siblings; index: number }): Siblings {
  return { nodes: container.children, outer };
}

/**
 * The last line a node really occupies (0-based). Some tokens (Rust `//` comments, a few
 * blocks) end at column 0 of the next row because they include the newline.
 */
export function lastRow(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row - 1 : end.row;
}

export class ChunkCollector {
  readonly chunks: Chunk[] = [];

  constructor(
    private readonly path: string,
    private readonly text: string,
    private readonly rules: AttachRules,
    /** The file's time budget: each chunk added asks it (BudgetSpent is thrown once it is spent). */
    private readonly budget?: ParseBudget,
  ) {}

  /**
   * Adds a chunk from `node` to `endNode` (default: `node`). When `at` says where `node` sits
   * among its siblings, the start moves up over the comments/decorators attached to it.
   */
  add(
    node: Node,
    symbolName: string,
    chunkType: ChunkType,
    at?: { siblings: Siblings; index: number },
    endNode: Node = node,
  ): void {
    this.budget?.check();
    const ownStart = node.startPosition.row;
    const startRow = at ? this.attachedStartRow(ownStart, at.siblings, at.index) : ownStart;
    const endRow = Math.max(lastRow(endNode), ownStart);
    this.chunks.push({
      path: this.path,
      startLine: startRow + 1,
      endLine: endRow + 1,
      symbolName,
      chunkType,
    });
  }

  private attachedStartRow(start: number, siblings: Siblings, index: number): number {
    let nodes = siblings.nodes;
    let scope = siblings;
    let i = index;
    for (;;) {
      i--;
      if (i < 0) {
        const outer = scope.outer;
        const first = nodes[0];
        const container = outer?.siblings.nodes[outer.index];
        if (!outer || !first || !container || container.startIndex !== first.startIndex) return start;
        scope = outer.siblings;
        nodes = scope.nodes;
        i = outer.index;
        continue;
      }
      const prev = nodes[i];
      if (this.rules.always.has(prev.type)) {
        start = prev.startPosition.row;
        continue;
      }
      if (!this.rules.comments.has(prev.type)) return start;
      if (lastRow(prev) < start - 1) return start; // a blank line separates them
      if (!this.startsLine(prev.startIndex)) return start; // trailing comment of the code before it
      start = prev.startPosition.row;
    }
  }

  /** True when only whitespace precedes `index` on its line. */
  private startsLine(index: number): boolean {
    for (let i = index - 1; i >= 0; i--) {
      const ch = this.text.charCodeAt(i);
      if (ch === 10) return true;
      if (ch !== 32 && ch !== 9 && ch !== 13 && ch !== 12 && ch !== 11) return false;
    }
    return true;
  }
}
