/**
 * Python symbol chunks: module-level `def` -> function, `class` -> class, `def` directly in
 * a class body -> method `Class.name` (classes nested in classes recurse the same way).
 * A decorated definition starts at its first decorator.
 */
import type { Node } from 'web-tree-sitter';
import { type ChunkCollector, type Siblings, siblingsOf } from './collect';

export const PYTHON_ATTACH = { comments: new Set(['comment']), always: new Set<string>() };

export function chunkPython(root: Node, c: ChunkCollector): void {
  block(siblingsOf(root), null, c);
}

function block(siblings: Siblings, className: string | null, c: ChunkCollector): void {
  siblings.nodes.forEach((node, index) => {
    if (node.type === 'ERROR') {
      if (className === null) block(siblingsOf(node), null, c);
      return;
    }
    const def = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node;
    if (!def) return;
    const name = def.childForFieldName('name')?.text;
    if (!name) return;
    const at = { siblings, index };
    if (def.type === 'function_definition') {
      c.add(
        node,
        className === null ? name : `${className}.${name}`,
        className === null ? 'function' : 'method',
        at,
      );
    } else if (def.type === 'class_definition') {
      c.add(node, name, 'class', at);
      const body = def.childForFieldName('body');
      if (!body) return;
      // The body's first comment can sit before `block` among the class's own children.
      const defSiblings = siblingsOf(def);
      const bodyIndex = defSiblings.nodes.findIndex(
        (n) => n.startIndex === body.startIndex && n.type === body.type,
      );
      block(
        siblingsOf(body, bodyIndex >= 0 ? { siblings: defSiblings, index: bodyIndex } : undefined),
        name,
        c,
      );
    }
  });
}
