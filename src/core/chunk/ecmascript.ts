/**
 * TypeScript / TSX / JavaScript (JSX, MJS, CJS) symbol chunks. The rules are listed in
 * index.ts; this walks module-level statements, namespace bodies and class bodies only:
 * functions nested in function bodies belong to their enclosing chunk.
 */
import type { Node } from 'web-tree-sitter';
import { type ChunkCollector, type Siblings, siblingsOf } from './collect';
import type { ChunkType } from './types';

export const ECMASCRIPT_ATTACH = {
  comments: new Set(['comment', 'html_comment']),
  always: new Set(['decorator']),
};

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const CLASS_VALUES = new Set(['class', 'class_expression']);
const WRAPPERS = new Set(['memo', 'forwardRef']);

interface Where {
  siblings: Siblings;
  index: number;
}

interface Context {
  c: ChunkCollector;
  /** JSX node types of this grammar, or null when it has none (plain .ts). */
  jsxTypes: string[] | null;
}

export function chunkEcmascript(root: Node, c: ChunkCollector, jsxTypes: string[] | null): void {
  statements(root, { c, jsxTypes }, undefined);
}

function statements(container: Node, ctx: Context, outer: Where | undefined): void {
  const siblings = siblingsOf(container, outer);
  siblings.nodes.forEach((node, index) => {
    if (node.isNamed) statement(node, node, false, { siblings, index }, ctx);
  });
}

/**
 * `node` is the declaration itself; `outer` is the statement the chunk spans (the
 * export_statement around it, or the node itself); `at` is where `outer` sits.
 */
function statement(node: Node, outer: Node, exported: boolean, at: Where, ctx: Context): void {
  switch (node.type) {
    case 'export_statement': {
      const decl = node.childForFieldName('declaration');
      if (decl) return statement(decl, outer, true, at, ctx);
      const value = node.childForFieldName('value');
      if (value) defaultExport(value, outer, at, ctx);
      return;
    }
    case 'ambient_declaration': // declare function / declare module / declare global
      for (const child of node.namedChildren) {
        if (child.type === 'statement_block') {
          ctx.c.add(outer, 'global', 'module', at);
          statements(child, ctx, undefined);
        } else statement(child, outer, exported, at, ctx);
      }
      return;
    case 'expression_statement': {
      // `namespace A {}` / `module A {}` at statement level parse as expressions.
      const inner = node.firstNamedChild;
      if (inner && (inner.type === 'internal_module' || inner.type === 'module')) statement(inner, outer, exported, at, ctx);
      return;
    }
    case 'internal_module':
    case 'module': {
      const name = node.childForFieldName('name');
      ctx.c.add(outer, name ? unquote(name.text) : 'module', 'module', at);
      const body = node.childForFieldName('body');
      if (body) statements(body, ctx, undefined);
      return;
    }
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature': {
      const name = node.childForFieldName('name')?.text ?? 'default';
      ctx.c.add(outer, name, isComponent(name, node, ctx) ? 'component' : 'function', at);
      return;
    }
    case 'class_declaration':
    case 'abstract_class_declaration':
    case 'class':
      classChunk(node, outer, node.childForFieldName('name')?.text ?? 'default', at, ctx);
      return;
    case 'interface_declaration':
      return named(node, outer, 'interface', at, ctx);
    case 'type_alias_declaration':
      return named(node, outer, 'type', at, ctx);
    case 'enum_declaration':
      return named(node, outer, 'enum', at, ctx);
    case 'lexical_declaration':
    case 'variable_declaration':
      declarators(node, outer, exported, at, ctx);
      return;
    case 'ERROR':
      // Recover what tree-sitter could still read inside a broken region.
      statements(node, ctx, undefined);
      return;
  }
}

function named(node: Node, outer: Node, type: ChunkType, at: Where, ctx: Context): void {
  ctx.c.add(outer, node.childForFieldName('name')?.text ?? 'default', type, at);
}

/** `export default <expression>`: a function, class or memo/forwardRef-wrapped component. */
function defaultExport(value: Node, outer: Node, at: Where, ctx: Context): void {
  const fn = functionOf(value);
  if (fn) {
    const name = fn.childForFieldName('name')?.text ?? 'default';
    const wrapped = fn !== unwrap(value);
    const component = isComponent(name, fn, ctx);
    if (component || !wrapped) ctx.c.add(outer, name, component ? 'component' : 'function', at);
    return;
  }
  const cls = unwrap(value);
  if (CLASS_VALUES.has(cls.type)) classChunk(cls, outer, cls.childForFieldName('name')?.text ?? 'default', at, ctx);
}

/** `const a = () => {}, B = memo(() => <div/>), C = 1;` — one chunk per declarator that qualifies. */
function declarators(decl: Node, outer: Node, exported: boolean, at: Where, ctx: Context): void {
  const isConst = decl.childForFieldName('kind')?.type === 'const' || decl.firstChild?.type === 'const';
  const list = decl.namedChildren.filter((n) => n.type === 'variable_declarator');
  list.forEach((d, i) => {
    const nameNode = d.childForFieldName('name');
    if (!nameNode || nameNode.type !== 'identifier') return; // destructuring patterns name nothing
    const name = nameNode.text;
    // A lone declarator spans the whole statement; with several, each spans itself and
    // only the first starts at the statement (with its comments).
    const where = i === 0 ? at : undefined;
    const start = i === 0 ? outer : d;
    const end = list.length === 1 ? outer : d;
    const value = d.childForFieldName('value');
    const fn = value ? functionOf(value) : null;
    if (fn) {
      const component = isComponent(name, fn, ctx);
      if (component) return addSpan(ctx, start, end, name, 'component', where);
      if (fn === unwrap(value!)) return addSpan(ctx, start, end, name, 'function', where);
    }
    const cls = value ? unwrap(value) : null;
    if (cls && CLASS_VALUES.has(cls.type)) {
      addSpan(ctx, start, end, name, 'class', where);
      members(cls, name, ctx);
      return;
    }
    if (exported && isConst) addSpan(ctx, start, end, name, 'const', where);
  });
}

function addSpan(ctx: Context, start: Node, end: Node, name: string, type: ChunkType, at: Where | undefined): void {
  ctx.c.add(start, name, type, at, end);
}

function classChunk(cls: Node, outer: Node, name: string, at: Where, ctx: Context): void {
  ctx.c.add(outer, name, 'class', at);
  members(cls, name, ctx);
}

/** Methods, getters, setters, constructors, signatures and arrow-function fields of a class. */
function members(cls: Node, className: string, ctx: Context): void {
  const body = cls.childForFieldName('body');
  if (!body) return;
  const siblings = siblingsOf(body);
  siblings.nodes.forEach((m, index) => {
    let method = false;
    switch (m.type) {
      case 'method_definition':
      case 'method_signature':
      case 'abstract_method_signature':
        method = true;
        break;
      case 'public_field_definition':
      case 'field_definition': {
        const value = m.childForFieldName('value');
        method = value !== null && FUNCTION_VALUES.has(unwrap(value).type);
        break;
      }
    }
    if (!method) return;
    const nameNode = m.childForFieldName('name') ?? m.childForFieldName('property');
    ctx.c.add(m, `${className}.${nameNode?.text ?? '?'}`, 'method', { siblings, index });
  });
}

/** The function a value is, directly or inside memo(...)/forwardRef(...) (nested or as React.memo). */
function functionOf(value: Node): Node | null {
  let v = unwrap(value);
  for (let depth = 0; depth < 8; depth++) {
    if (FUNCTION_VALUES.has(v.type)) return v;
    if (v.type !== 'call_expression') return null;
    const callee = v.childForFieldName('function');
    const calleeName = callee?.type === 'member_expression' ? callee.childForFieldName('property')?.text : callee?.text;
    if (!calleeName || !WRAPPERS.has(calleeName)) return null;
    const arg = v.childForFieldName('arguments')?.firstNamedChild;
    if (!arg) return null;
    v = unwrap(arg);
  }
  return null;
}

/** Strips parentheses and `as`/`satisfies`/`!` wrappers around an expression. */
function unwrap(node: Node): Node {
  let n = node;
  for (;;) {
    if (n.type === 'parenthesized_expression' || n.type === 'as_expression' || n.type === 'satisfies_expression' || n.type === 'non_null_expression') {
      const inner = n.firstNamedChild;
      if (!inner) return n;
      n = inner;
    } else return n;
  }
}

function isComponent(name: string, fn: Node, ctx: Context): boolean {
  if (!ctx.jsxTypes) return false;
  const first = name.charCodeAt(0);
  if (!(first >= 65 && first <= 90)) return false; // A-Z
  return fn.descendantsOfType(ctx.jsxTypes).length > 0;
}

function unquote(s: string): string {
  return /^(['"`]).*\1$/s.test(s) ? s.slice(1, -1) : s;
}
