/**
 * Rust symbol chunks: fn -> function (inside impl/trait -> method `Type.name`), impl -> impl
 * (symbolName = `Type` or `Trait for Type` as written), struct, enum, trait, `mod` with a body
 * -> module (its items recurse), type alias -> type. `#[...]` attributes and `///` doc
 * comments above an item belong to it.
 */
import type { Node } from 'web-tree-sitter';
import { type ChunkCollector, type Siblings, siblingsOf } from './collect';

export const RUST_ATTACH = {
  comments: new Set(['line_comment', 'block_comment']),
  always: new Set(['attribute_item']),
};

export function chunkRust(root: Node, c: ChunkCollector): void {
  items(siblingsOf(root), null, c);
}

/** `owner` is the impl's type or the trait whose items these are, null at module level. */
function items(siblings: Siblings, owner: string | null, c: ChunkCollector): void {
  siblings.nodes.forEach((node, index) => {
    const at = { siblings, index };
    const name = node.childForFieldName('name')?.text;
    switch (node.type) {
      case 'function_item':
      case 'function_signature_item':
        if (name) c.add(node, owner ? `${owner}.${name}` : name, owner ? 'method' : 'function', at);
        return;
      case 'impl_item': {
        const type = node.childForFieldName('type');
        const trait = node.childForFieldName('trait');
        if (!type) return;
        c.add(node, trait ? `${trait.text} for ${type.text}` : type.text, 'impl', at);
        const body = node.childForFieldName('body');
        if (body) items(siblingsOf(body), baseTypeName(type), c);
        return;
      }
      case 'trait_item': {
        if (!name) return;
        c.add(node, name, 'trait', at);
        const body = node.childForFieldName('body');
        if (body) items(siblingsOf(body), name, c);
        return;
      }
      case 'struct_item':
        if (name && owner === null) c.add(node, name, 'struct', at);
        return;
      case 'enum_item':
        if (name && owner === null) c.add(node, name, 'enum', at);
        return;
      case 'type_item': // associated types inside impl/trait are not aliases of their own
        if (name && owner === null) c.add(node, name, 'type', at);
        return;
      case 'mod_item': {
        const body = node.childForFieldName('body');
        if (!name || !body || owner !== null) return;
        c.add(node, name, 'module', at);
        items(siblingsOf(body), null, c);
        return;
      }
      case 'ERROR':
        if (owner === null) items(siblingsOf(node), null, c);
        return;
    }
  });
}

/** `Point<T>` -> Point, `fmt::Formatter` -> Formatter, `&'a mut Foo` -> Foo. */
function baseTypeName(type: Node): string {
  let t: Node | null = type;
  for (let depth = 0; t && depth < 8; depth++) {
    switch (t.type) {
      case 'type_identifier':
      case 'primitive_type':
        return t.text;
      case 'generic_type':
      case 'reference_type':
      case 'pointer_type':
        t = t.childForFieldName('type');
        break;
      case 'scoped_type_identifier':
        t = t.childForFieldName('name');
        break;
      default:
        return t.text;
    }
  }
  return type.text;
}
