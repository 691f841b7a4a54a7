/**
 * HTML chunks (.html .htm): every element with a non-empty `id` attribute (any tag, any
 * case of `ID`, quoted or not) -> 'element' named `#id`, from its start tag to its end tag
 * (or its last child when it has none: `<input id=x>`);
 * elements nest, so an element's chunk contains those of the elements with ids inside it.
 * Elements without an id are not chunks (their ided descendants still are). What is
 * inside <script> and <style> is not looked at here (the script symbols are the embedded-
 * script dispatcher's). Comments directly above attach.
 */
import type { Node } from 'web-tree-sitter';
import { type ChunkCollector, type Siblings, siblingsOf } from './collect';

export const HTML_ATTACH = { comments: new Set(['comment']), always: new Set<string>() };

const ELEMENTS = new Set(['element', 'script_element', 'style_element']);

export function chunkHtml(root: Node, c: ChunkCollector): void {
  children(siblingsOf(root), c, 0);
}

function children(siblings: Siblings, c: ChunkCollector, depth: number): void {
  if (depth > 512) return; // the walk is recursive: a pathological nesting stops here
  siblings.nodes.forEach((node, index) => {
    if (node.type === 'ERROR') return children(siblingsOf(node), c, depth + 1);
    if (!ELEMENTS.has(node.type)) return;
    const id = idOf(node);
    // An element without an end tag (void, or closed implicitly) ends with its last child, not the whitespace after it.
    if (id) c.add(node, `#${id}`, 'element', { siblings, index }, node.lastNamedChild ?? node);
    if (node.type === 'element') children(siblingsOf(node), c, depth + 1);
  });
}

function idOf(element: Node): string | null {
  const tag = element.namedChildren.find((n) => n.type === 'start_tag' || n.type === 'self_closing_tag');
  if (!tag) return null;
  for (const attr of tag.namedChildren) {
    if (attr.type !== 'attribute') continue;
    const [name, value] = attr.namedChildren;
    if (name?.type !== 'attribute_name' || name.text.toLowerCase() !== 'id' || !value) continue;
    const raw =
      value.type === 'quoted_attribute_value'
        ? (value.namedChildren.find((n) => n.type === 'attribute_value')?.text ?? '')
        : value.text;
    const id = raw.trim();
    return id === '' ? null : id;
  }
  return null;
}
