/** Small helpers over web-tree-sitter nodes of the TypeScript / TSX / JavaScript grammars. */
import type { Node } from 'web-tree-sitter';

export const FUNCTION_TYPES = new Set([
  'arrow_function',
  'function_expression',
  'function',
  'generator_function',
]);
export const FUNCTION_DECLARATIONS = new Set(['function_declaration', 'generator_function_declaration']);
export const CLASS_VALUES = new Set(['class', 'class_expression']);
export const JSX_TYPES = new Set(['jsx_element', 'jsx_self_closing_element', 'jsx_fragment']);
/** Nodes that open a new function scope (their returns are not the enclosing function's). */
export const SCOPE_TYPES = new Set([
  ...FUNCTION_TYPES,
  ...FUNCTION_DECLARATIONS,
  'method_definition',
  'class_body',
]);

/** Strips parentheses and `as` / `satisfies` / `!` / `<T>x` wrappers around an expression. */
export function unwrap(node: Node): Node {
  let n = node;
  for (let i = 0; i < 32; i++) {
    if (
      n.type === 'parenthesized_expression' ||
      n.type === 'as_expression' ||
      n.type === 'satisfies_expression' ||
      n.type === 'non_null_expression' ||
      n.type === 'type_assertion'
    ) {
      const inner =
        n.type === 'type_assertion' ? n.namedChildren[n.namedChildren.length - 1] : n.firstNamedChild;
      if (!inner) return n;
      n = inner;
    } else return n;
  }
  return n;
}

/** `f(...)` -> 'f'; `a.b.f(...)` -> 'f'; anything else -> null. */
export function calleeName(call: Node): string | null {
  const callee = call.childForFieldName('function');
  if (!callee) return null;
  const c = unwrap(callee);
  if (c.type === 'identifier') return c.text;
  if (c.type === 'member_expression') return c.childForFieldName('property')?.text ?? null;
  return null;
}

/** The receiver of a method call (`ld.variation()` -> `ld`, `a.b.c()` -> `b`), or null for a plain call. */
export function calleeObject(call: Node): Node | null {
  const callee = call.childForFieldName('function');
  if (!callee) return null;
  const c = unwrap(callee);
  if (c.type !== 'member_expression') return null;
  const obj = c.childForFieldName('object');
  return obj ? unwrap(obj) : null;
}

/** The root identifier of `a.b.c` / `a()` / `await a.b()` / `new A()`, or null. */
export function rootIdentifier(node: Node | null): string | null {
  let n = node;
  for (let i = 0; n && i < 16; i++) {
    n = unwrap(n);
    switch (n.type) {
      case 'identifier':
        return n.text;
      case 'member_expression':
      case 'subscript_expression':
        n = n.childForFieldName('object');
        break;
      case 'call_expression':
        n = n.childForFieldName('function');
        break;
      case 'new_expression':
        n = n.childForFieldName('constructor');
        break;
      case 'await_expression':
        n = n.firstNamedChild;
        break;
      default:
        return null;
    }
  }
  return null;
}

/** The value of a string literal, or of a template literal without substitutions; else null. */
export function stringValue(node: Node | null): string | null {
  if (!node) return null;
  const n = unwrap(node);
  if (n.type === 'string') {
    const t = n.text;
    return t.length >= 2 ? t.slice(1, -1) : '';
  }
  if (n.type === 'template_string') {
    if (n.namedChildren.some((c) => c.type === 'template_substitution')) return null;
    return n.text.slice(1, -1);
  }
  return null;
}

/** Call arguments as nodes (comments skipped). */
export function callArguments(call: Node): Node[] {
  const args = call.childForFieldName('arguments');
  if (!args) return [];
  return args.namedChildren.filter((n) => n.type !== 'comment');
}

/** Does an `export` statement carry the `default` keyword? */
export function isDefaultExport(exportStatement: Node): boolean {
  for (let i = 0; i < exportStatement.childCount; i++) {
    const c = exportStatement.child(i);
    if (c && !c.isNamed && c.type === 'default') return true;
  }
  return false;
}

export function lineOf(node: Node): number {
  return node.startPosition.row + 1;
}

export function isCapitalised(name: string): boolean {
  const c = name.charCodeAt(0);
  return c >= 65 && c <= 90;
}

/**
 * Depth-first visit of every node below `root` (root included), in document order, with a
 * cursor (far fewer allocations than namedChildren recursion). `enter` returns false to
 * skip a node's children.
 */
export function visit(
  root: Node,
  enter: (node: Node, parent: Node | null, field: string | null) => boolean | void,
): void {
  const cursor = root.walk();
  const parents: Node[] = [];
  try {
    for (;;) {
      const node = cursor.currentNode;
      const descend = node.isNamed
        ? enter(node, parents[parents.length - 1] ?? null, cursor.currentFieldName) !== false
        : true;
      if (descend && cursor.gotoFirstChild()) {
        parents.push(node);
        continue;
      }
      for (;;) {
        if (parents.length === 0) return;
        if (cursor.gotoNextSibling()) break;
        cursor.gotoParent();
        parents.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}
