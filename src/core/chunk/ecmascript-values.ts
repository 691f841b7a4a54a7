/**
 * ECMAScript values that are symbols (the 'const' rule of index.ts) and the methods of object
 * literals. Everything here looks at direct children only, one pass over each children array
 * (never previousSibling/nextSibling), so the cost stays proportional to what is chunked.
 */
import type { Node } from 'web-tree-sitter';
import { lastRow, type Siblings } from './collect';

export const FUNCTION_VALUES = new Set([
  'arrow_function',
  'function_expression',
  'function',
  'generator_function',
]);
export const CLASS_VALUES = new Set(['class', 'class_expression']);

/** Arguments that make a call a definition: `defineComponent({...})`, `makeCache(() => ...)`, `new Map([...])`. */
const CONTENT_ARGUMENTS = new Set(['object', 'array', 'class', ...FUNCTION_VALUES]);
/** Calls that load a module rather than define anything. */
const LOADERS = new Set(['require', 'import']);
/** What a forwarding function returns: a name (`a`, `ns.a`). */
const NAMES = new Set(['identifier', 'member_expression']);

/** Strips parentheses and `as`/`satisfies`/`!` wrappers around an expression. */
export function unwrap(node: Node): Node {
  let n = node;
  for (;;) {
    if (
      n.type === 'parenthesized_expression' ||
      n.type === 'as_expression' ||
      n.type === 'satisfies_expression' ||
      n.type === 'non_null_expression'
    ) {
      const inner = n.firstNamedChild;
      if (!inner) return n;
      n = inner;
    } else return n;
  }
}

/** `unwrap` plus a top-level `await` (`const config = await load({...})`). */
function unwrapValue(node: Node): Node {
  const v = unwrap(node);
  const inner = v.type === 'await_expression' ? v.firstNamedChild : null;
  return inner ? unwrap(inner) : v;
}

/**
 * Whether a value is worth a 'const' chunk without being exported: it spans two lines or
 * more and is an object or array literal, a `new` expression, or a call that defines
 * something (an object/array/function/class argument, a tagged template, an IIFE, also
 * further down a method chain: `z.object({...}).strict()`). require()/import() calls,
 * names, member expressions, primitives and other calls are not.
 */
export function isValueSymbol(value: Node): boolean {
  const v = unwrapValue(value);
  if (lastRow(v) === v.startPosition.row) return false;
  switch (v.type) {
    case 'object':
    case 'array':
    case 'new_expression':
      return true;
    case 'call_expression':
      return definingCall(v);
    default:
      return false;
  }
}

function definingCall(call: Node): boolean {
  let c: Node | null = call;
  for (let depth = 0; c && c.type === 'call_expression' && depth < 8; depth++) {
    const callee = c.childForFieldName('function');
    if (!callee) return false;
    const fn = unwrap(callee);
    if (LOADERS.has(fn.type) || (fn.type === 'identifier' && LOADERS.has(fn.text))) return false;
    if (FUNCTION_VALUES.has(fn.type)) return true; // an IIFE
    const args = c.childForFieldName('arguments');
    if (args?.type === 'template_string') return true; // styled.div`...`, gql`...`
    if (args) for (const a of args.namedChildren) if (CONTENT_ARGUMENTS.has(unwrap(a).type)) return true;
    c = fn.type === 'member_expression' ? fn.childForFieldName('object') : null;
  }
  return false;
}

/** The object literal whose methods a value's chunk holds: the value itself, or the first object argument of a call or `new`. */
export function objectOf(value: Node): Node | null {
  const v = unwrapValue(value);
  if (v.type === 'object') return v;
  if (v.type !== 'call_expression' && v.type !== 'new_expression') return null;
  const args = v.childForFieldName('arguments');
  if (!args || args.type !== 'arguments') return null;
  for (const a of args.namedChildren) {
    const u = unwrap(a);
    if (u.type === 'object') return u;
  }
  return null;
}

/** A method chunk to add once its container is known to qualify. */
export interface PendingMember {
  node: Node;
  name: string;
  at: { siblings: Siblings; index: number };
}

export interface ObjectMembers {
  members: PendingMember[];
  /**
   * True when every property only re-exports a name: shorthand `{ a }`, `a: a`, spreads,
   * `__proto__: null`, getters/functions whose body is only a name. Rollup's namespace
   * objects (`Object.defineProperty({ __proto__: null, get parse () { return parse; } })`)
   * and `module.exports = { a, b }` are such export tables: no chunk of their own (they
   * would shadow the symbols they list). `{ cwd: assertString }` maps a key to something
   * else and is not one.
   */
  exportTable: boolean;
}

/**
 * The methods of an object literal, named `prefix.key`: `key() {}`, getters/setters,
 * `key: function () {}`, `key: () => {}`, each when it spans two lines or more (a one-line
 * member is read in its container: thousands of `sync: () => false` would each be a tiny
 * chunk topping every search for its key); properties holding an object literal are walked
 * one level further (`X.methods.foo`).
 */
export function objectMembers(obj: Node, prefix: string): ObjectMembers {
  const members: PendingMember[] = [];
  const exportTable = collect(obj, prefix, members, 1);
  return { members, exportTable };
}

function collect(obj: Node, prefix: string, out: PendingMember[], depthLeft: number): boolean {
  // Named children are enough to attach comments (the commas between them never attach).
  const siblings: Siblings = { nodes: obj.namedChildren };
  const nodes = siblings.nodes;
  let table = true;
  for (let index = 0; index < nodes.length; index++) {
    const m = nodes[index];
    const type = m.type;
    if (type === 'comment' || type === 'shorthand_property_identifier' || type === 'spread_element') continue;
    // Past the export-table question, a one-line member can be neither a chunk nor hold a
    // nested object worth walking: data tables cost two position reads per entry.
    const multiLine = lastRow(m) > m.startPosition.row;
    if (!table && !multiLine) continue;
    if (type === 'method_definition') {
      if (table && !forwards(m)) table = false;
      if (multiLine)
        out.push({
          node: m,
          name: `${prefix}.${keyName(m.childForFieldName('name'))}`,
          at: { siblings, index },
        });
    } else if (type === 'pair') {
      const raw = m.childForFieldName('value');
      const value = raw ? unwrap(raw) : null;
      if (!value) continue;
      const valueType = value.type;
      if (FUNCTION_VALUES.has(valueType)) {
        if (table && !forwards(value)) table = false;
        if (multiLine)
          out.push({
            node: m,
            name: `${prefix}.${keyName(m.childForFieldName('key'))}`,
            at: { siblings, index },
          });
      } else {
        if (table && !reexport(m, valueType, value)) table = false;
        if (valueType === 'object' && depthLeft > 0)
          collect(value, `${prefix}.${keyName(m.childForFieldName('key'))}`, out, depthLeft - 1);
      }
    } else table = false;
  }
  return table;
}

/** `a: a` or `__proto__: null`, the non-function pairs an export table may hold. */
function reexport(pair: Node, valueType: string, value: Node): boolean {
  const key = keyName(pair.childForFieldName('key'));
  return key === '__proto__' || (valueType === 'identifier' && value.text === key);
}

/**
 * A getter or an arrow function that only hands out a name: `get a() { return a; }`,
 * `() => a` (what bundlers write for re-exports). A method `run() { return n; }` is code.
 */
function forwards(fn: Node): boolean {
  const body = fn.childForFieldName('body');
  if (!body) return false;
  if (fn.type === 'arrow_function')
    return NAMES.has(body.type) && fn.childForFieldName('parameters')?.namedChildCount === 0;
  if (fn.type !== 'method_definition' || fn.firstChild?.type !== 'get') return false;
  if (body.type !== 'statement_block' || body.namedChildCount !== 1) return false;
  const only = body.firstNamedChild;
  const returned = only?.type === 'return_statement' ? only.firstNamedChild : null;
  return returned !== null && NAMES.has(returned.type);
}

/** A property key as people write it: `setup`, `'quoted'` -> quoted, `[Symbol.iterator]` as written. */
export function keyName(key: Node | null): string {
  if (!key) return '?';
  return key.type === 'string' ? unquote(key.text) : key.text;
}

export function unquote(s: string): string {
  return /^(['"`]).*\1$/s.test(s) ? s.slice(1, -1) : s;
}
