/**
 * React components, found with the parser (never a text pattern).
 *
 * A component is a module-level declaration with a capitalised name (A-Z) that is
 *   - a function declaration, function expression or arrow function that RETURNS JSX (or
 *     React.createElement / cloneElement): an arrow's expression body, or a `return` of the
 *     function itself (not of a nested function) whose value is JSX, a ternary / `&&` / `||`
 *     / `??` with a JSX branch, an array of JSX, a call with a JSX argument or a JSX-returning
 *     callback (`items.map(i => <li/>)`, `createPortal(<div/>, el)`), or a local variable
 *     holding one of those;
 *   - such a function wrapped in memo(...) / forwardRef(...) / React.memo(...) /
 *     React.forwardRef(...), nested wrappers too (kind 'memo' when memo is among the
 *     wrappers, else 'forwardRef');
 *   - a class extending Component / PureComponent / React.Component / React.PureComponent.
 * Default exports count too; an anonymous one (`export default () => <div/>`) is named after
 * its file (`user-card/index.tsx` -> `UserCard`) and marked `anonymous`.
 * Not components: `export const API_URL = "..."`, capitalised functions without JSX, hooks
 * and render helpers with lower-case names, classes extending anything else.
 *
 * `type` keeps seed 000's two values: 'arrow' for arrow functions (wrapped or not),
 * 'function' for everything else (a class is a constructor function); `kind` says which form.
 *
 * Uses: every JSX tag `<Name` / `<ns.Name` and every other reference to a capitalised
 * identifier in code (`createElement(Name)`, `{ component: Name }`), except its own
 * declaration, imports, `export { Name }` / `export default Name` / `export default memo(Name)`
 * and `Name.displayName = ...`-style statics. Uses are matched by name across the workspace
 * (no import resolution): two components with the same name share their uses.
 */
import type { Node } from 'web-tree-sitter';
import { minifiedDetail } from '../chunk/minified';
import { toQuarryError } from '../errors';
import type { Yielder } from '../jobs/yielder';
import { baseName, dirName } from '../source/types';
import type { Workspace } from '../source/workspace';
import type { Skipped } from '../walk/policy';
import { scriptLanguageOf, type SourceParsers } from './parsers';
import { memoByContent, scanFiles } from './scan';
import {
  callArguments,
  calleeName,
  CLASS_VALUES,
  FUNCTION_TYPES,
  isCapitalised,
  isDefaultExport,
  JSX_TYPES,
  lineOf,
  SCOPE_TYPES,
  unwrap,
  visit,
} from './syntax';

export type ComponentKind = 'function' | 'arrow' | 'class' | 'memo' | 'forwardRef';

export interface ComponentDef {
  name: string;
  /** Seed 000: 'arrow' for arrow functions, 'function' for every other form. */
  type: 'function' | 'arrow';
  kind: ComponentKind;
  /** Outermost first: `memo(forwardRef(...))` -> ['memo', 'forwardRef']. */
  wrappers: string[];
  line: number;
  endLine: number;
  exported: boolean;
  default: boolean;
  /** A default export without a name, named after its file. */
  anonymous: boolean;
}

export interface FileComponents {
  components: ComponentDef[];
  /** Capitalised names used in this file -> the lines (ascending, unique). */
  uses: Record<string, number[]>;
}

const WRAPPERS = new Set(['memo', 'forwardRef']);
const ELEMENT_FACTORIES = new Set(['createElement', 'cloneElement']);
const CLASS_BASES = new Set(['Component', 'PureComponent']);
const STATICS = new Set([
  'displayName',
  'propTypes',
  'defaultProps',
  'contextType',
  'contextTypes',
  'childContextTypes',
]);

interface Candidate {
  name: string;
  anonymous: boolean;
  node: Node; // the function or class
  outer: Node; // the statement spanned
  wrappers: string[];
  exported: boolean;
  isDefault: boolean;
}

/** Components declared in one parsed file, and the capitalised names it uses. */
export function componentsInTree(root: Node, path: string): FileComponents {
  const candidates: Candidate[] = [];
  const exportedNames = new Set<string>();
  let defaultName: string | null = null;

  const fromValue = (
    value: Node,
    name: string | null,
    outer: Node,
    exported: boolean,
    isDefault: boolean,
  ) => {
    const { fn, wrappers } = functionOf(value);
    const target = fn ?? unwrap(value);
    if (!fn && !CLASS_VALUES.has(target.type)) {
      // `export default memo(Button)` / `export default Button`: mark the local as exported.
      if (isDefault) {
        const local = wrappedIdentifier(value);
        if (local) defaultName = local;
      }
      return;
    }
    const own = target.childForFieldName('name')?.text ?? null;
    const resolved = name ?? own;
    candidates.push({
      name: resolved ?? fileComponentName(path),
      anonymous: resolved === null,
      node: target,
      outer,
      wrappers,
      exported,
      isDefault,
    });
  };

  const statement = (node: Node, outer: Node, exported: boolean, isDefault: boolean): void => {
    switch (node.type) {
      case 'export_statement': {
        const def = isDefaultExport(node);
        const decl = node.childForFieldName('declaration');
        if (decl) return statement(decl, outer, true, def);
        const value = node.childForFieldName('value');
        if (value) return fromValue(value, null, outer, true, true);
        if (!node.childForFieldName('source'))
          defaultName = exportClauses(node, exportedNames) ?? defaultName;
        return;
      }
      case 'function_declaration':
      case 'generator_function_declaration':
      case 'class_declaration':
      case 'abstract_class_declaration': {
        const name = node.childForFieldName('name')?.text ?? null;
        candidates.push({
          name: name ?? fileComponentName(path),
          anonymous: name === null,
          node,
          outer,
          wrappers: [],
          exported,
          isDefault,
        });
        return;
      }
      case 'lexical_declaration':
      case 'variable_declaration':
        for (const d of node.namedChildren) {
          if (d.type !== 'variable_declarator') continue;
          const nameNode = d.childForFieldName('name');
          const value = d.childForFieldName('value');
          if (nameNode?.type === 'identifier' && value)
            fromValue(value, nameNode.text, outer, exported, false);
        }
        return;
      case 'expression_statement': {
        // CommonJS: module.exports = Name / = { Name } / exports.Name = Name
        const expr = node.firstNamedChild;
        if (expr?.type !== 'assignment_expression') return;
        const left = expr.childForFieldName('left')?.text;
        const right = expr.childForFieldName('right');
        if (!right) return;
        const local = wrappedIdentifier(right);
        if (left === 'module.exports' && unwrap(right).type === 'object') {
          // module.exports = { Button, Card: CardImpl }
          for (const p of unwrap(right).namedChildren) {
            if (p.type === 'shorthand_property_identifier') exportedNames.add(p.text);
            else if (p.type === 'pair') {
              const v = p.childForFieldName('value');
              const id = v ? wrappedIdentifier(v) : null;
              if (id) exportedNames.add(id);
            }
          }
        } else if (
          left === 'module.exports' ||
          left === 'exports.default' ||
          left === 'module.exports.default'
        ) {
          if (local) defaultName = local;
          else fromValue(right, null, outer, true, true);
        } else if (left && /^(module\.)?exports\.[A-Za-z_$][\w$]*$/.test(left) && local)
          exportedNames.add(local);
        return;
      }
      case 'ERROR':
        for (const child of node.namedChildren) statement(child, child, false, false);
        return;
    }
  };

  for (const node of root.namedChildren) statement(node, node, false, false);

  const components: ComponentDef[] = [];
  for (const c of candidates) {
    const def = componentOf(c, defaultName, exportedNames);
    if (def) components.push(def);
  }
  return { components, uses: usesInTree(root) };
}

/**
 * `export { a, b as default }` (no source): adds the locals exported by name to `exported`
 * and returns the one exported as default (null: none).
 */
function exportClauses(node: Node, exported: Set<string>): string | null {
  let defaultName: string | null = null;
  for (const clause of node.namedChildren) {
    if (clause.type !== 'export_clause') continue;
    for (const spec of clause.namedChildren) {
      if (spec.type !== 'export_specifier') continue;
      const local = spec.childForFieldName('name')?.text;
      const alias = spec.childForFieldName('alias')?.text;
      if (!local) continue;
      if (alias === 'default') defaultName = local;
      else exported.add(local);
    }
  }
  return defaultName;
}

/** The candidate as a component: null unless it is capitalised (or anonymous) and returns JSX or extends Component. */
function componentOf(
  c: Candidate,
  defaultName: string | null,
  exportedNames: Set<string>,
): ComponentDef | null {
  if (!c.anonymous && !isCapitalised(c.name)) return null;
  let kind: ComponentKind;
  let type: 'function' | 'arrow';
  if (
    CLASS_VALUES.has(c.node.type) ||
    c.node.type === 'class_declaration' ||
    c.node.type === 'abstract_class_declaration'
  ) {
    if (!extendsReactComponent(c.node)) return null;
    kind = 'class';
    type = 'function';
  } else {
    if (!returnsJsx(c.node)) return null;
    type = c.node.type === 'arrow_function' ? 'arrow' : 'function';
    kind = c.wrappers.includes('memo') ? 'memo' : c.wrappers.includes('forwardRef') ? 'forwardRef' : type;
  }
  const isDefault = c.isDefault || (!c.anonymous && c.name === defaultName);
  return {
    name: c.name,
    type,
    kind,
    wrappers: c.wrappers,
    line: lineOf(c.outer),
    endLine: c.outer.endPosition.row + 1,
    exported: c.exported || isDefault || exportedNames.has(c.name),
    default: isDefault,
    anonymous: c.anonymous,
  };
}

/** The function a value is, directly or inside memo(...)/forwardRef(...) wrappers. */
function functionOf(value: Node): { fn: Node | null; wrappers: string[] } {
  const wrappers: string[] = [];
  let v = unwrap(value);
  for (let depth = 0; depth < 8; depth++) {
    if (FUNCTION_TYPES.has(v.type)) return { fn: v, wrappers };
    if (v.type !== 'call_expression') break;
    const name = calleeName(v);
    if (!name || !WRAPPERS.has(name)) break;
    const arg = callArguments(v)[0];
    if (!arg) break;
    wrappers.push(name);
    v = unwrap(arg);
  }
  return { fn: null, wrappers: [] };
}

/** `Name`, or `memo(Name)` / `React.memo(forwardRef(Name))`: the wrapped identifier. */
function wrappedIdentifier(value: Node): string | null {
  let v = unwrap(value);
  for (let depth = 0; depth < 8; depth++) {
    if (v.type === 'identifier') return v.text;
    if (v.type !== 'call_expression') return null;
    const name = calleeName(v);
    if (!name || !WRAPPERS.has(name)) return null;
    const arg = callArguments(v)[0];
    if (!arg) return null;
    v = unwrap(arg);
  }
  return null;
}

function extendsReactComponent(cls: Node): boolean {
  const heritage = cls.namedChildren.find((c) => c.type === 'class_heritage');
  if (!heritage) return false;
  // TypeScript: class_heritage > extends_clause > value; JavaScript: class_heritage > expression.
  const clause = heritage.namedChildren.find((c) => c.type === 'extends_clause');
  const base = clause ? clause.childForFieldName('value') : heritage.firstNamedChild;
  if (!base) return false;
  const b = unwrap(base);
  if (b.type === 'identifier') return CLASS_BASES.has(b.text);
  if (b.type === 'member_expression') {
    const obj = b.childForFieldName('object');
    const prop = b.childForFieldName('property')?.text ?? '';
    return obj?.type === 'identifier' && obj.text === 'React' && CLASS_BASES.has(prop);
  }
  return false;
}

/** Does this function return JSX (see the header for the rule)? */
export function returnsJsx(fn: Node): boolean {
  const body = fn.childForFieldName('body');
  if (!body) return false;
  if (body.type !== 'statement_block') return jsxish(body, fn, 0);
  let found = false;
  visit(body, (node) => {
    if (found) return false;
    if (node.id !== body.id && SCOPE_TYPES.has(node.type)) return false; // a nested function's returns are its own
    if (node.type === 'return_statement') {
      const arg = node.namedChildren.find((c) => c.type !== 'comment');
      if (arg && jsxish(arg, fn, 0)) found = true;
      return false;
    }
    return true;
  });
  return found;
}

function jsxish(expr: Node, fn: Node, depth: number): boolean {
  if (depth > 6) return false;
  const e = unwrap(expr);
  if (JSX_TYPES.has(e.type)) return true;
  switch (e.type) {
    case 'ternary_expression':
      return [e.childForFieldName('consequence'), e.childForFieldName('alternative')].some(
        (b) => b !== null && jsxish(b, fn, depth + 1),
      );
    case 'binary_expression':
      return [e.childForFieldName('left'), e.childForFieldName('right')].some(
        (b) => b !== null && jsxish(b, fn, depth + 1),
      );
    case 'array':
      return e.namedChildren.some((el) => jsxish(el, fn, depth + 1));
    case 'call_expression': {
      const name = calleeName(e);
      if (name && ELEMENT_FACTORIES.has(name)) return true;
      return callArguments(e).some((a) => {
        const u = unwrap(a);
        return FUNCTION_TYPES.has(u.type) ? returnsJsx(u) : jsxish(u, fn, depth + 1);
      });
    }
    case 'identifier':
      return localValueIsJsx(e.text, fn, depth + 1);
  }
  return false;
}

/** `const el = <div/>; return el;`: a variable of the function's own scope holding JSX. */
function localValueIsJsx(name: string, fn: Node, depth: number): boolean {
  const body = fn.childForFieldName('body');
  if (!body || body.type !== 'statement_block') return false;
  let found = false;
  visit(body, (node) => {
    if (found) return false;
    if (node.id !== body.id && SCOPE_TYPES.has(node.type)) return false;
    if (node.type === 'variable_declarator' && node.childForFieldName('name')?.text === name) {
      const value = node.childForFieldName('value');
      if (value && jsxish(value, fn, depth)) found = true;
      return false;
    }
    return true;
  });
  return found;
}

/** `src/user-card/index.tsx` -> `UserCard`; `app/page.tsx` -> `Page`. */
export function fileComponentName(path: string): string {
  let base = baseName(path).replace(/\.[^.]*$/, '');
  if (base === 'index') base = baseName(dirName(path)) || 'Index';
  const words = base.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return /^[A-Z]/.test(name) ? name : 'Component';
}

const DECLARING_PARENTS = new Set([
  'import_specifier',
  'import_clause',
  'namespace_import',
  'export_specifier',
  'required_parameter',
  'optional_parameter',
  'formal_parameters',
  'rest_pattern',
  'assignment_pattern',
  'object_assignment_pattern',
  'array_pattern',
  'labeled_statement',
]);

const JSX_TAGS = new Set(['jsx_opening_element', 'jsx_self_closing_element', 'jsx_closing_element']);

function usesInTree(root: Node): Record<string, number[]> {
  const uses = new Map<string, Set<number>>();
  const add = (name: string, line: number) => {
    let s = uses.get(name);
    if (!s) uses.set(name, (s = new Set()));
    s.add(line);
  };
  visit(root, (node, parent, field) => {
    const t = node.type;
    if (t === 'import_statement') return false;
    if (t === 'export_statement') {
      // `export default Name` / `export default memo(Name)` are not uses (nor `export { Name }`:
      // export_specifier is a declaring parent below).
      const value = node.childForFieldName('value');
      return !(value && wrappedIdentifier(value));
    }
    if (t === 'expression_statement' && parent?.type === 'program') {
      // CommonJS exports are not uses either
      const left =
        node.firstNamedChild?.type === 'assignment_expression'
          ? node.firstNamedChild.childForFieldName('left')?.text
          : undefined;
      if (left && /^(module\.)?exports(\.|$)/.test(left)) return false;
      return true;
    }
    if (t === 'jsx_opening_element' || t === 'jsx_self_closing_element') {
      const name = node.childForFieldName('name');
      const tag = name?.type === 'member_expression' ? name.childForFieldName('property') : name;
      if (tag && isCapitalised(tag.text)) add(tag.text, lineOf(tag));
      return true; // attributes may hold references (`element={Home}`)
    }
    if (t !== 'identifier' && t !== 'shorthand_property_identifier') return true;
    const text = node.text;
    if (!parent || !isCapitalised(text)) return true;
    const pt = parent.type;
    if (DECLARING_PARENTS.has(pt)) return true;
    if (JSX_TAGS.has(pt)) return true; // the tag itself, counted above (or a closing tag)
    if (
      (pt === 'member_expression' || pt === 'nested_identifier') &&
      parent.parent &&
      JSX_TAGS.has(parent.parent.type)
    )
      return true;
    if (field === 'name') return true; // the declaration itself
    if (pt === 'member_expression' && field === 'object') {
      const prop = parent.childForFieldName('property')?.text;
      if (prop && STATICS.has(prop) && parent.parent?.type === 'assignment_expression') return true;
    }
    add(text, lineOf(node));
    return true;
  });
  const out: Record<string, number[]> = {};
  for (const [name, lines] of uses) out[name] = [...lines].sort((a, b) => a - b);
  return out;
}

export interface ComponentUse {
  path: string;
  line: number;
}

export interface FoundComponent extends ComponentDef {
  /** Workspace path of the defining file. */
  path: string;
  uses: { count: number; places: ComponentUse[] };
}

export interface FindComponentsOptions {
  /** Definitions only from these starting points (uses are counted across the whole workspace). */
  starts?: Array<{ rootIndex: number; rel: string }>;
  /** Keep a component when its name passes. */
  acceptName?: (name: string) => boolean;
  /** Cap on `uses.places` per component (the count stays exact); default 100. */
  maxPlaces?: number;
  signal?: AbortSignal;
  yielder?: Yielder;
}

export interface FindComponentsResult {
  components: FoundComponent[];
  filesScanned: number;
  skipped: Skipped[];
}

/** Every component of the workspace (or under `starts`), with its uses, in walk order then line. */
export async function findComponents(
  workspace: Workspace,
  parsers: SourceParsers,
  options: FindComponentsOptions = {},
): Promise<FindComponentsResult> {
  const maxPlaces = options.maxPlaces ?? 100;
  const skipped: Skipped[] = [];
  const defs: Array<{ path: string; def: ComponentDef }> = [];
  const usesByName = new Map<string, ComponentUse[]>();
  const inScope = (rootIndex: number, rel: string) =>
    !options.starts ||
    options.starts.some(
      (s) => s.rootIndex === rootIndex && (s.rel === '' || rel === s.rel || rel.startsWith(s.rel + '/')),
    );

  const filesScanned = await scanFiles(
    workspace,
    {
      acceptFile: (rel) => scriptLanguageOf(rel) !== null,
      signal: options.signal,
      yielder: options.yielder,
      onSkip: (s) => skipped.push(s),
    },
    (file) => {
      let result: FileComponents & { minified?: string };
      try {
        result = memoByContent('components', file.source, file.rel, file.text, () => {
          // a bundle's components are its libraries' own, under minified names, and parsing one
          // costs seconds: left out, and said, as the indexes do
          const minified = minifiedDetail(file.rel, file.text);
          if (minified !== null) return { components: [], uses: {}, minified };
          return parsers.withTree(file.rel, file.text, (root) => componentsInTree(root, file.rel));
        });
      } catch (err) {
        const qe = toQuarryError(err);
        if (qe.code === 'Cancelled') throw qe;
        skipped.push({ path: file.path, reason: 'unreadable', detail: qe.message });
        return;
      }
      if (result.minified) {
        skipped.push({ path: file.path, reason: 'minified', detail: result.minified });
        return;
      }
      if (inScope(file.rootIndex, file.rel)) {
        for (const def of result.components)
          if (!options.acceptName || options.acceptName(def.name)) defs.push({ path: file.path, def });
      }
      for (const [name, lines] of Object.entries(result.uses)) {
        let list = usesByName.get(name);
        if (!list) usesByName.set(name, (list = []));
        for (const line of lines) list.push({ path: file.path, line });
      }
    },
  );

  const components = defs.map(({ path, def }): FoundComponent => {
    const all = usesByName.get(def.name) ?? [];
    return { ...def, path, uses: { count: all.length, places: all.slice(0, maxPlaces) } };
  });
  return { components, filesScanned, skipped };
}
