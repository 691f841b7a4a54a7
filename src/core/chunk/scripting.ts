/**
 * Ruby (.rb .rake .gemspec, Rakefile, Gemfile), PHP (.php) and shell (.sh .bash) symbol
 * chunks. Ruby and PHP start from their packages' tags.scm (tags.ts has the shared scope
 * and naming rules); the Bash package ships none.
 *
 * Ruby: `module` -> 'module' and `class` -> 'class', both named as written (`Billing::Tax`)
 *   and both owning their methods (prefix: the last segment, `Tax`); `def` -> 'method'
 *   `Owner.name`, or 'function' at top level; `def self.x` -> 'method' `Owner.x`; the
 *   methods of a `class << self` block belong to the enclosing class (the block itself is
 *   not a chunk). `alias` is not a chunk. Nothing inside a method or a block (`do ... end`,
 *   `Class.new { }`) is a chunk.
 * PHP (the grammar with the HTML around `<?php ?>`): function -> 'function'; class ->
 *   'class'; interface -> 'interface'; trait -> 'trait'; enum -> 'enum'; method -> 'method'
 *   `Class.name`; `namespace X { }` -> 'module' (the statement form `namespace X;` has no
 *   body: no chunk). Functions declared inside `if (...) { }` at top level count (the
 *   `function_exists` idiom); functions inside function bodies do not. Attributes
 *   (`#[...]`) are part of the declaration.
 * Bash: `f() { }` and `function f { }` -> 'function' (also inside a top-level if).
 * Comments directly above attach.
 */
import type { Node } from 'web-tree-sitter';
import { type Definition, type Tag, type TagsSpec, fieldText, patternsFor } from './tags';

export const RUBY_ATTACH = { comments: new Set(['comment']), always: new Set<string>() };
export const PHP_ATTACH = { comments: new Set(['comment']), always: new Set<string>() };
export const BASH_ATTACH = { comments: new Set(['comment']), always: new Set<string>() };

export const RUBY_TAGS: TagsSpec = {
  // tags.scm has method, singleton_method, alias, class, singleton_class and module
  patterns: '',
  through: new Set(['body_statement', 'singleton_class']),
  define({ node }: Tag): Definition | null {
    switch (node.type) {
      case 'class':
      case 'module': {
        const nameNode = node.childForFieldName('name');
        if (!nameNode) return null;
        const last =
          nameNode.type === 'scope_resolution'
            ? (nameNode.childForFieldName('name')?.text ?? nameNode.text)
            : nameNode.text;
        return {
          node,
          name: nameNode.text,
          type: node.type === 'class' ? 'class' : 'module',
          container: true,
          ownerName: last,
        };
      }
      case 'method':
      case 'singleton_method': {
        const name = fieldText(node);
        return name ? { node, name, type: 'function', member: true } : null;
      }
    }
    return null; // alias, singleton_class (transparent)
  },
};

const PHP_BRANCHES = new Set(['if_statement', 'else_clause', 'else_if_clause', 'colon_block']);

export const PHP_TAGS: TagsSpec = {
  // tags.scm has namespace, interface, trait, class, property, function and method
  patterns: patternsFor({ enum_declaration: 'class' }),
  through: new Set(['declaration_list', 'enum_declaration_list', 'compound_statement', ...PHP_BRANCHES]),
  /** A block passes only as a namespace's body or an if's branch, never a function's body. */
  passes(a: Node): boolean {
    if (a.type !== 'compound_statement') return true;
    const parent = a.parent;
    return !!parent && (parent.type === 'namespace_definition' || PHP_BRANCHES.has(parent.type));
  },
  define({ node }: Tag): Definition | null {
    const name = fieldText(node);
    if (!name) return null;
    switch (node.type) {
      case 'namespace_definition':
        return node.childForFieldName('body') ? { node, name, type: 'module', container: true } : null;
      case 'class_declaration':
        return { node, name, type: 'class', container: true, ownerName: name };
      case 'interface_declaration':
        return { node, name, type: 'interface', container: true, ownerName: name };
      case 'trait_declaration':
        return { node, name, type: 'trait', container: true, ownerName: name };
      case 'enum_declaration':
        return { node, name, type: 'enum', container: true, ownerName: name };
      case 'function_definition':
      case 'method_declaration':
        return { node, name, type: 'function', member: true };
    }
    return null; // properties
  },
};

export const BASH_TAGS: TagsSpec = {
  patterns: patternsFor({ function_definition: 'function' }),
  through: new Set(['if_statement', 'elif_clause', 'else_clause']),
  define({ node }: Tag): Definition | null {
    const name = fieldText(node);
    return name ? { node, name, type: 'function' } : null;
  },
};
