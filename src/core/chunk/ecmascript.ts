/**
 * TypeScript / TSX / JavaScript (JSX, MJS, CJS) symbol chunks. This walks module-level
 * statements, namespace bodies and class bodies only: functions nested in function bodies
 * belong to their enclosing chunk. Values and object literals: ecmascript-values.ts.
 *
 * RULES (the ECMAScript part of index.ts's RULES, kept in step with it):
 *
 * TypeScript (.ts, incl. .d.ts), TSX (.tsx, tsx grammar), JavaScript (.js .jsx .mjs .cjs,
 * the javascript grammar, which parses JSX), at module level and inside namespace/module
 * bodies (never inside function bodies):
 *   - function declarations, plain, `export`, `export default`, async, generators, and
 *     overload/`declare` signatures                                   -> 'function'
 *   - `const`/`let`/`var` declarators whose value is an arrow function or function
 *     expression, exported or not                                      -> 'function'
 *   - `export default` of an arrow function / function expression     -> 'function'
 *     (named `default` when anonymous)
 *   - classes (also abstract, `export default class`, `const X = class {}`) -> 'class',
 *     and inside them each method, getter, setter, constructor, method signature and
 *     field whose value is an arrow function or function expression  -> 'method' `Class.name`
 *     (static blocks and other fields are not chunks)
 *   - interfaces -> 'interface'; type aliases -> 'type'; enums (also `const enum`,
 *     `declare enum`) -> 'enum'
 *   - namespaces, `module X {}`, `declare module 'x' {}` (named x), `declare global {}`
 *     -> 'module', named as written (`namespace A.B.C` -> `A.B.C`; a nested namespace by
 *     its own name, like everything else in a namespace body)
 *   - any other EXPORTED `const` declarator (`export const API_URL = "..."`) -> 'const'
 *   - a VALUE SYMBOL, exported or not, in a `const`/`let`/`var` declarator, `export default`
 *     (named `default`) or CommonJS export (below)                       -> 'const'.
 *     A value symbol spans two lines or more and is (past parentheses, `as`, `satisfies`,
 *     `!` and a top-level `await`) an object literal, an array literal, a `new` expression,
 *     or a call that defines something: one with an object, array, function or class
 *     argument (`defineComponent({...})`, `createSlice({...})`, `Object.freeze({...})`,
 *     `makeCache(() => ...)`), a tagged template (styled.div`...`, gql`...`), an IIFE, or
 *     such a call further down a method chain (`z.object({...}).strict()`). Never a value
 *     symbol: require()/import() calls, names and member expressions, primitives and
 *     template strings, other calls, and anything on one line (`const seen = new Set()`,
 *     `const origin = { x: 0 }`): tiny chunks would flood the index. Nor is an EXPORT
 *     TABLE, an object made only of re-exports (shorthand `{ a, b }`, `a: a`, spreads,
 *     `__proto__: null`, getters `get a() { return a; }` and arrows `() => a` that only
 *     return a name: bundlers' namespace objects, `module.exports = { a, b }`), which would
 *     shadow the symbols it lists (exported as `export const`, it is still a 'const',
 *     without methods).
 *   - the object literal of a 'const' (the value itself, or the first object argument of
 *     its call or `new`): each method, getter, setter, `key: function () {}` and
 *     `key: () => {}` spanning two lines or more -> 'method' `X.key` (`default.key` for
 *     `export default {...}`, `exports.key` for `module.exports = {...}`; quoted keys
 *     unquoted, computed keys as written), and the same one object level further down
 *     (`X.methods.foo`, Vue's options API). One-line members are read in their container.
 *   - CommonJS, an assignment statement at module level: `module.exports = <value>` is
 *     named after the function's or class's own name, else `exports`;
 *     `exports.foo = <value>` and `module.exports.foo = <value>` are named foo; the value
 *     follows the declarator rules (function -> 'function', class -> 'class' with its
 *     methods, value symbol -> 'const' with its methods; `exports.x = x`, require(),
 *     primitives: no chunk).
 *   - a function/arrow whose name starts with A-Z and whose body contains JSX, directly or
 *     wrapped in memo(...)/forwardRef(...)/React.memo(...) (nested too) -> 'component'.
 *     A wrapped value without JSX is not a function: it is a 'const' when exported or a
 *     value symbol (a multi-line call with a function argument), otherwise no chunk. Only
 *     .tsx and the JS family can contain JSX; .ts never has components.
 * Containers overlap their members: a 'const' object contains its method chunks as a
 * class does.
 */
import type { Node } from 'web-tree-sitter';
import { type ChunkCollector, lastRow, type Siblings, siblingsOf } from './collect';
import {
  CLASS_VALUES,
  FUNCTION_VALUES,
  isValueSymbol,
  objectMembers,
  objectOf,
  unquote,
  unwrap,
} from './ecmascript-values';
import type { ChunkType } from './types';

export const ECMASCRIPT_ATTACH = {
  comments: new Set(['comment', 'html_comment']),
  always: new Set(['decorator']),
};

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
      if (inner && (inner.type === 'internal_module' || inner.type === 'module'))
        statement(inner, outer, exported, at, ctx);
      else if (inner?.type === 'assignment_expression') commonJs(inner, outer, at, ctx);
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

/** `export default <expression>`: a function, class, memo/forwardRef-wrapped component, or a value named `default`. */
function defaultExport(value: Node, outer: Node, at: Where, ctx: Context): void {
  const fn = functionOf(value);
  if (fn) {
    const name = fn.childForFieldName('name')?.text ?? 'default';
    const wrapped = fn !== unwrap(value);
    const component = isComponent(name, fn, ctx);
    if (component || !wrapped) return ctx.c.add(outer, name, component ? 'component' : 'function', at);
  }
  const cls = unwrap(value);
  if (CLASS_VALUES.has(cls.type))
    classChunk(cls, outer, cls.childForFieldName('name')?.text ?? 'default', at, ctx);
  else valueChunk(value, outer, outer, 'default', false, at, ctx);
}

/**
 * CommonJS: `module.exports = <value>` (named after a named function or class, else
 * `exports`), `exports.foo = <value>` and `module.exports.foo = <value>` (named foo), with
 * the rules of a declarator's value.
 */
function commonJs(assign: Node, outer: Node, at: Where, ctx: Context): void {
  const left = assign.childForFieldName('left');
  const value = assign.childForFieldName('right');
  if (!left || !value || left.type !== 'member_expression') return;
  const object = left.childForFieldName('object');
  const property = left.childForFieldName('property')?.text;
  if (!object || !property) return;
  const isModule = (n: Node) => n.type === 'identifier' && n.text === 'module';
  let name: string;
  if (isModule(object) && property === 'exports') {
    const v = unwrap(value);
    const own =
      FUNCTION_VALUES.has(v.type) || CLASS_VALUES.has(v.type) ? v.childForFieldName('name')?.text : undefined;
    name = own ?? 'exports';
  } else if (
    (object.type === 'identifier' && object.text === 'exports') ||
    (object.type === 'member_expression' && object.text === 'module.exports')
  ) {
    name = property;
  } else return;
  binding(name, value, outer, outer, false, at, ctx);
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
    binding(name, d.childForFieldName('value'), start, end, exported && isConst, where, ctx);
  });
}

/**
 * A name bound to a value (a declarator, a CommonJS export): a function, a component, a
 * class, or a 'const' when `anyValue` (an exported `const`) or the value is a symbol by
 * itself (isValueSymbol), with the methods of its object literal.
 */
function binding(
  name: string,
  value: Node | null,
  start: Node,
  end: Node,
  anyValue: boolean,
  where: Where | undefined,
  ctx: Context,
): void {
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
  if (value) valueChunk(value, start, end, name, anyValue, where, ctx);
  else if (anyValue) addSpan(ctx, start, end, name, 'const', where);
}

/** A 'const' chunk for a value that qualifies, then the methods of its object literal (unless it is an export table). */
function valueChunk(
  value: Node,
  start: Node,
  end: Node,
  name: string,
  anyValue: boolean,
  where: Where | undefined,
  ctx: Context,
): void {
  if (!anyValue && !isValueSymbol(value)) return;
  if (lastRow(value) === value.startPosition.row) return addSpan(ctx, start, end, name, 'const', where); // exported one-liner: no members to find
  const obj = objectOf(value);
  const found = obj ? objectMembers(obj, name) : null;
  if (!anyValue && found?.exportTable) return;
  addSpan(ctx, start, end, name, 'const', where);
  if (found && !found.exportTable) for (const m of found.members) ctx.c.add(m.node, m.name, 'method', m.at);
}

function addSpan(
  ctx: Context,
  start: Node,
  end: Node,
  name: string,
  type: ChunkType,
  at: Where | undefined,
): void {
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
    const calleeName =
      callee?.type === 'member_expression' ? callee.childForFieldName('property')?.text : callee?.text;
    if (!calleeName || !WRAPPERS.has(calleeName)) return null;
    const arg = v.childForFieldName('arguments')?.firstNamedChild;
    if (!arg) return null;
    v = unwrap(arg);
  }
  return null;
}

function isComponent(name: string, fn: Node, ctx: Context): boolean {
  if (!ctx.jsxTypes) return false;
  const first = name.charCodeAt(0);
  if (!(first >= 65 && first <= 90)) return false; // A-Z
  return fn.descendantsOfType(ctx.jsxTypes).length > 0;
}
