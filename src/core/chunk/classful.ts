/**
 * Java (.java), C# (.cs), Kotlin (.kt .kts) and Swift (.swift) symbol chunks. Java and C#
 * start from their packages' tags.scm; Kotlin and Swift packages ship none, so the patterns
 * below are all of it. Scope and naming rules are tags.ts's: members are 'method'
 * `Type.name` after the innermost type, nothing inside a method body (local and anonymous
 * classes) is a chunk, namespaces contain but do not own.
 *
 * Java: class, record -> 'class'; interface, @interface -> 'interface'; enum -> 'enum';
 *   method, constructor (`Cart.Cart`), compact record constructor -> 'method'.
 *   `package x;` has no body: no chunk. Annotations are part of the declaration.
 * C#: class, record -> 'class'; struct, record struct -> 'struct'; interface; enum;
 *   delegate -> 'type'; method, constructor (`Order.Order`), destructor (`Order.~Order`),
 *   operator (`Order.operator +`) -> 'method'; `namespace X { }` -> 'module'
 *   (file-scoped `namespace X;` has no body: no chunk). Properties are not chunks.
 * Kotlin: class, object, data/sealed/... class -> 'class'; interface -> 'interface'; enum
 *   class -> 'enum'; fun -> 'function', in a type 'method'; secondary constructor ->
 *   `Type.constructor`; typealias -> 'type'. A companion object is transparent (its funs
 *   are `Outer.f`). Extension functions are named by their own name (`fun List<T>.second`
 *   -> 'second').
 * Swift: class, actor -> 'class'; struct -> 'struct'; enum -> 'enum'; protocol ->
 *   'interface'; extension -> 'impl' named by the extended type (its members are
 *   `Type.name`); func -> 'function'/'method'; init/deinit -> `Type.init`/`Type.deinit`;
 *   protocol requirements `func f()` -> 'method'; typealias -> 'type'.
 * Comments directly above attach (attributes and annotations are inside the declaration).
 */
import type { Node } from 'web-tree-sitter';
import type { ChunkType } from './types';
import { type Definition, type Tag, type TagsSpec, fieldText, patternsFor } from './tags';

export const JAVA_ATTACH = {
  comments: new Set(['line_comment', 'block_comment']),
  always: new Set<string>(),
};
export const CSHARP_ATTACH = { comments: new Set(['comment']), always: new Set<string>() };
export const KOTLIN_ATTACH = {
  comments: new Set(['line_comment', 'block_comment']),
  always: new Set<string>(),
};
export const SWIFT_ATTACH = {
  comments: new Set(['comment', 'multiline_comment']),
  always: new Set<string>(),
};

/** A named type container that owns its members. */
function typeDef(
  node: Node,
  name: string | null,
  type: ChunkType,
  ownerName = name ?? '',
): Definition | null {
  return name ? { node, name, type, container: true, ownerName: ownerName.replace(/<.*$/s, '') } : null;
}

function member(node: Node, name: string | null): Definition | null {
  return name ? { node, name, type: 'function', member: true } : null;
}

export const JAVA_TAGS: TagsSpec = {
  // tags.scm has class, interface and method declarations
  patterns: patternsFor({
    enum_declaration: 'class',
    record_declaration: 'class',
    annotation_type_declaration: 'interface',
    constructor_declaration: 'method',
    compact_constructor_declaration: 'method',
  }),
  through: new Set([
    'class_body',
    'interface_body',
    'enum_body',
    'enum_body_declarations',
    'annotation_type_body',
  ]),
  define({ node }: Tag): Definition | null {
    const name = fieldText(node);
    switch (node.type) {
      case 'class_declaration':
      case 'record_declaration':
        return typeDef(node, name, 'class');
      case 'interface_declaration':
      case 'annotation_type_declaration':
        return typeDef(node, name, 'interface');
      case 'enum_declaration':
        return typeDef(node, name, 'enum');
      case 'method_declaration':
      case 'constructor_declaration':
      case 'compact_constructor_declaration':
        return member(node, name);
    }
    return null;
  },
};

export const CSHARP_TAGS: TagsSpec = {
  // tags.scm has class, interface, method and namespace declarations (namespaces with a simple name only)
  patterns: patternsFor({
    namespace_declaration: 'module',
    struct_declaration: 'class',
    enum_declaration: 'class',
    record_declaration: 'class',
    delegate_declaration: 'type',
    constructor_declaration: 'method',
    destructor_declaration: 'method',
    operator_declaration: 'method',
  }),
  through: new Set([
    'declaration_list',
    'namespace_declaration',
    'preproc_if',
    'preproc_else',
    'preproc_elif',
    'preproc_region',
  ]),
  define({ node }: Tag): Definition | null {
    const name = fieldText(node);
    switch (node.type) {
      case 'class_declaration':
        return typeDef(node, name, 'class');
      case 'record_declaration':
        return typeDef(node, name, node.children.some((c) => c.type === 'struct') ? 'struct' : 'class');
      case 'struct_declaration':
        return typeDef(node, name, 'struct');
      case 'interface_declaration':
        return typeDef(node, name, 'interface');
      case 'enum_declaration':
        return typeDef(node, name, 'enum');
      case 'namespace_declaration':
        return name && node.childForFieldName('body')
          ? { node, name, type: 'module', container: true }
          : null;
      case 'delegate_declaration':
        return name ? { node, name, type: 'type' } : null;
      case 'method_declaration':
      case 'constructor_declaration':
        return member(node, name);
      case 'destructor_declaration':
        return member(node, name && `~${name}`);
      case 'operator_declaration': {
        const kids = node.children;
        const at = kids.findIndex((c) => c.type === 'operator');
        const op = at >= 0 ? kids[at + 1] : undefined;
        return member(node, op && op.type !== 'parameter_list' ? `operator ${op.text}` : null);
      }
    }
    return null;
  },
};

export const KOTLIN_TAGS: TagsSpec = {
  patterns: patternsFor({
    class_declaration: 'class',
    object_declaration: 'class',
    function_declaration: 'function',
    secondary_constructor: 'method',
    type_alias: 'type',
  }),
  through: new Set(['class_body', 'enum_class_body', 'companion_object']),
  define({ node }: Tag): Definition | null {
    switch (node.type) {
      case 'class_declaration': {
        const name = fieldText(node);
        if (node.children.some((c) => c.type === 'interface')) return typeDef(node, name, 'interface');
        const modifiers = node.children.find((c) => c.type === 'modifiers');
        const isEnum = modifiers?.namedChildren.some((m) => m.type === 'class_modifier' && m.text === 'enum');
        return typeDef(node, name, isEnum ? 'enum' : 'class');
      }
      case 'object_declaration':
        return typeDef(node, fieldText(node), 'class');
      case 'function_declaration':
        return member(node, fieldText(node));
      case 'secondary_constructor':
        return member(node, 'constructor');
      case 'type_alias': {
        const name = fieldText(node) ?? fieldText(node, 'type');
        return name ? { node, name, type: 'type' } : null;
      }
    }
    return null;
  },
};

const SWIFT_KINDS: Record<string, ChunkType> = {
  class: 'class',
  actor: 'class',
  struct: 'struct',
  enum: 'enum',
  extension: 'impl',
};

export const SWIFT_TAGS: TagsSpec = {
  patterns: patternsFor({
    class_declaration: 'class',
    protocol_declaration: 'interface',
    function_declaration: 'function',
    protocol_function_declaration: 'method',
    init_declaration: 'method',
    deinit_declaration: 'method',
    typealias_declaration: 'type',
  }),
  through: new Set(['class_body', 'enum_class_body', 'protocol_body']),
  define({ node }: Tag): Definition | null {
    switch (node.type) {
      case 'class_declaration': {
        const kind = SWIFT_KINDS[node.childForFieldName('declaration_kind')?.type ?? 'class'] ?? 'class';
        const name = fieldText(node);
        return typeDef(node, name, kind);
      }
      case 'protocol_declaration':
        return typeDef(node, fieldText(node), 'interface');
      case 'function_declaration':
      case 'protocol_function_declaration':
        return member(node, fieldText(node));
      case 'init_declaration':
        return member(node, 'init');
      case 'deinit_declaration':
        return member(node, 'deinit');
      case 'typealias_declaration': {
        const name = fieldText(node);
        return name ? { node, name, type: 'type' } : null;
      }
    }
    return null;
  },
};
