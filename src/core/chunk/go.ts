/**
 * Go symbol chunks: `func` -> function, a method with a receiver -> method `Recv.Name`
 * (pointer `*` and type parameters stripped), `type X struct` -> struct, `type X interface`
 * -> interface, any other type spec or alias -> type.
 */
import type { Node } from 'web-tree-sitter';
import { type ChunkCollector, type Siblings, siblingsOf } from './collect';
import type { ChunkType } from './types';

export const GO_ATTACH = { comments: new Set(['comment']), always: new Set<string>() };

export function chunkGo(root: Node, c: ChunkCollector): void {
  topLevel(siblingsOf(root), c);
}

function topLevel(siblings: Siblings, c: ChunkCollector): void {
  siblings.nodes.forEach((node, index) => {
    const at = { siblings, index };
    switch (node.type) {
      case 'function_declaration': {
        const name = node.childForFieldName('name')?.text;
        if (name) c.add(node, name, 'function', at);
        return;
      }
      case 'method_declaration': {
        const name = node.childForFieldName('name')?.text;
        if (!name) return;
        const recv = receiverType(node.childForFieldName('receiver'));
        c.add(node, recv ? `${recv}.${name}` : name, 'method', at);
        return;
      }
      case 'type_declaration':
        typeDeclaration(node, at, c);
        return;
      case 'ERROR':
        topLevel(siblingsOf(node), c);
        return;
    }
  });
}

/** `type X ...` or `type ( A ...; B ... )`: one chunk per spec; a lone spec spans the declaration. */
function typeDeclaration(decl: Node, at: { siblings: Siblings; index: number }, c: ChunkCollector): void {
  const inner = siblingsOf(decl);
  const specs = inner.nodes.filter((n) => n.type === 'type_spec' || n.type === 'type_alias');
  for (const spec of specs) {
    const name = spec.childForFieldName('name')?.text;
    if (!name) continue;
    const typeNode = spec.childForFieldName('type');
    let kind: ChunkType = 'type';
    if (spec.type === 'type_spec' && typeNode?.type === 'struct_type') kind = 'struct';
    else if (spec.type === 'type_spec' && typeNode?.type === 'interface_type') kind = 'interface';
    if (specs.length === 1) c.add(decl, name, kind, at);
    else c.add(spec, name, kind, { siblings: inner, index: inner.nodes.indexOf(spec) });
  }
}

function receiverType(receiver: Node | null): string | null {
  const param = receiver?.namedChildren.find((n) => n.type === 'parameter_declaration');
  let t = param?.childForFieldName('type') ?? null;
  for (let depth = 0; t && depth < 8; depth++) {
    if (t.type === 'type_identifier') return t.text;
    if (t.type === 'pointer_type' || t.type === 'parenthesized_type') t = t.firstNamedChild;
    else if (t.type === 'generic_type') t = t.childForFieldName('type');
    else return t.text.replace(/^[*(\s]+|[)\s]+$/g, '').replace(/\[.*$/s, '');
  }
  return null;
}
