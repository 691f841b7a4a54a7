/**
 * C (.c .h) and C++ (.cc .cpp .cxx .hpp .hh .hxx) symbol chunks, from the packages' tags.scm
 * plus the patterns below (tags.ts has the shared scope and naming rules):
 *   - a function definition, or a prototype at file/namespace level (`int f(void);`)
 *                                                          -> 'function'
 *     inside a class/struct body (definition or declaration) -> 'method' `Class.name`;
 *     out of class, `void A::f() {}` / `ns::A<T>::f` -> 'method' `A.f` (the last scope,
 *     template arguments dropped; a namespace-qualified free function is named the same
 *     way, the syntax cannot tell them apart). Constructors, destructors (`A.~A`) and
 *     operators (`A.operator==`) too.
 *   - struct / union with a body -> 'struct'; C++ class -> 'class'; enum with a body -> 'enum'
 *     (a forward declaration `struct S;` is none). `typedef struct X {...} Y;` is one
 *     'struct' chunk named X, or Y when the struct has no tag; it spans the typedef.
 *   - any other typedef (`typedef int id_t;`, function pointer typedefs) and C++ `using X =`
 *     -> 'type'
 *   - `#define` with a value, object-like or function-like -> 'macro' (a bare `#define
 *     GUARD_H` is none)
 *   - C++ `namespace a {}` / `namespace a::b {}` -> 'module' (contains, does not own);
 *     anonymous namespaces are transparent
 *   - `template <...>` above a definition belongs to it; `#if`/`#ifdef` blocks and
 *     `extern "C" {}` are transparent. Nothing inside a function body is a chunk.
 * Comments directly above attach.
 */
import type { Node } from 'web-tree-sitter';
import type { Definition, Tag, TagsSpec } from './tags';

export const C_ATTACH = { comments: new Set(['comment']), always: new Set<string>() };

const THROUGH = new Set([
  'preproc_if',
  'preproc_ifdef',
  'preproc_else',
  'preproc_elif',
  'preproc_elifdef',
  'linkage_specification',
  'declaration_list',
  'field_declaration_list',
  'namespace_definition', // anonymous ones (named ones are kept containers)
  'template_declaration',
]);

/** Declarator wrappers between a declaration and its function declarator (`char *f()`, `T &f()`). */
const WRAPPERS = new Set(['pointer_declarator', 'reference_declarator', 'attributed_declarator']);
/** Declarator nodes on the way down from a typedef to its name. */
const TYPEDEF_WRAPPERS = new Set([
  'pointer_declarator',
  'function_declarator',
  'parenthesized_declarator',
  'array_declarator',
  'attributed_declarator',
]);

/**
 * What the packages' tags.scm lack: (C) named unions outside a declaration, typedefs of
 * pointers/functions/arrays, macros; (C++ also) destructors, operators, template
 * functions, every qualified name, namespaces, `using X =`. Anonymous structs, unions and
 * enums come through their typedef (`typedef struct { } point_t;`).
 */
function spec(cpp: boolean): TagsSpec {
  const patterns = [
    '(union_specifier name: (_) body: (_)) @definition.class',
    '(type_definition declarator: [(pointer_declarator) (function_declarator) (array_declarator) (parenthesized_declarator)]) @definition.type',
    '(preproc_def) @definition.macro',
    '(preproc_function_def) @definition.macro',
  ];
  if (cpp) {
    patterns.push(
      '(function_declarator declarator: [(qualified_identifier) (destructor_name) (operator_name) (template_function)]) @definition.function',
      '(namespace_definition) @definition.module',
      '(alias_declaration) @definition.type',
    );
  }
  return { patterns: patterns.join('\n'), through: THROUGH, define: (tag) => define(tag, cpp) };
}

export const C_TAGS = spec(false);
export const CPP_TAGS = spec(true);

function define(tag: Tag, cpp: boolean): Definition | null {
  const node = tag.node;
  switch (node.type) {
    case 'function_declarator':
      return functionDefinition(node);
    case 'struct_specifier':
    case 'union_specifier':
    case 'class_specifier':
    case 'enum_specifier':
      return typeSpecifier(node);
    case 'type_definition':
      return typedef(node);
    case 'preproc_def':
    case 'preproc_function_def': {
      const name = node.childForFieldName('name')?.text;
      return name && node.childForFieldName('value') ? { node, name, type: 'macro' } : null;
    }
    case 'namespace_definition': {
      const name = node.childForFieldName('name')?.text;
      return cpp && name && node.childForFieldName('body')
        ? { node: templated(node), name, type: 'module', container: true }
        : null;
    }
    case 'alias_declaration': {
      const name = node.childForFieldName('name')?.text;
      return name ? { node: templated(node), name, type: 'type' } : null;
    }
  }
  return null;
}

/** A function declarator that is the declarator of a definition or a declaration (not a parameter). */
function functionDefinition(declarator: Node): Definition | null {
  // Only declarator nodes are climbed, so the function declarator is the top's declarator
  // (a function-typed parameter stops at its parameter_declaration).
  let top = declarator.parent;
  while (top && WRAPPERS.has(top.type)) top = top.parent;
  if (
    !top ||
    (top.type !== 'function_definition' && top.type !== 'declaration' && top.type !== 'field_declaration')
  )
    return null;
  const target = declarator.childForFieldName('declarator');
  if (!target) return null;
  const { name, qualifier } = functionName(target);
  if (!name) return null;
  return { node: templated(top), name, type: 'function', member: true, ...(qualifier ? { qualifier } : {}) };
}

/** `f` -> f; `A::B<T>::f` -> f with qualifier B; `~A`, `operator==` as written. */
function functionName(target: Node): { name: string | null; qualifier: string | null } {
  let qualifier: string | null = null;
  let t: Node | null = target;
  for (let depth = 0; t && t.type === 'qualified_identifier' && depth < 16; depth++) {
    const scope = t.childForFieldName('scope');
    if (scope) qualifier = baseName(scope);
    t = t.childForFieldName('name');
  }
  if (!t) return { name: null, qualifier: null };
  switch (t.type) {
    case 'identifier':
    case 'field_identifier':
    case 'destructor_name':
    case 'operator_name':
      return { name: t.text.replace(/\s+/g, ' '), qualifier };
    case 'template_function':
    case 'template_method':
      return { name: t.childForFieldName('name')?.text ?? null, qualifier };
  }
  return { name: null, qualifier: null }; // a function pointer, a macro-made name
}

/** `Box<T>` -> Box; `ns` -> ns. */
function baseName(scope: Node): string {
  if (scope.type === 'template_type') return scope.childForFieldName('name')?.text ?? scope.text;
  return scope.text.replace(/<.*$/s, '');
}

function typeSpecifier(node: Node): Definition | null {
  if (!node.childForFieldName('body')) return null; // `struct S;`, `struct S s;`
  const parent = node.parent;
  const wrapped =
    parent &&
    (parent.type === 'declaration' ||
      parent.type === 'field_declaration' ||
      parent.type === 'type_definition') &&
    parent.childForFieldName('type')?.id === node.id;
  let name = node.childForFieldName('name')?.text ?? null;
  if (!name && wrapped && parent.type === 'type_definition') name = typedefNames(parent)[0] ?? null;
  if (!name) return null;
  const range = templated(wrapped ? parent : node);
  if (node.type === 'enum_specifier') return { node: range, name, type: 'enum' };
  const owner =
    node.childForFieldName('name')?.type === 'template_type'
      ? (node.childForFieldName('name')!.childForFieldName('name')?.text ?? name)
      : name;
  return {
    node: range,
    name,
    type: node.type === 'class_specifier' ? 'class' : 'struct',
    container: true,
    ownerName: owner,
  };
}

/** A typedef: 'type', unless it wraps a struct/union/enum body (then the specifier's chunk, named by the typedef when the specifier has no tag). */
function typedef(node: Node): Definition | null {
  const type = node.childForFieldName('type');
  if (type && /^(struct|union|enum|class)_specifier$/.test(type.type) && type.childForFieldName('body')) {
    return type.childForFieldName('name') ? null : typeSpecifier(type); // a named one is tagged itself
  }
  const name = typedefNames(node)[0];
  return name ? { node, name, type: 'type' } : null;
}

function typedefNames(node: Node): string[] {
  const names: string[] = [];
  for (const d of node.childrenForFieldName('declarator')) {
    let t: Node | null = d;
    for (let depth = 0; t && t.type !== 'type_identifier' && depth < 16; depth++) {
      t = TYPEDEF_WRAPPERS.has(t.type)
        ? (t.childForFieldName('declarator') ??
          t.namedChildren.find((n) => n !== null && n.type !== 'parameter_list') ??
          null)
        : null;
    }
    if (t?.type === 'type_identifier') names.push(t.text);
  }
  return names;
}

/** The outermost `template <...>` around a node (the chunk starts there). */
function templated(node: Node): Node {
  let n = node;
  while (n.parent?.type === 'template_declaration') n = n.parent;
  return n;
}
