/**
 * The query-driven chunker for the languages added in issue 15 (C, C++, Java, C#, Kotlin,
 * Swift, Ruby, PHP, Bash). Candidates come from tree-sitter queries:
 *   - the grammar package's own `queries/tags.scm` when it ships one (C, C++, Java, C#, Ruby,
 *     PHP), handed in as text by the GrammarLoader; only its patterns with a
 *     `@definition.*` capture are kept (the `@reference.*` ones are disabled, they would
 *     match every call or identifier). Predicates web-tree-sitter does not know (#strip!,
 *     #select-adjacent!) are kept as data and never evaluated, so they cannot fail a match;
 *   - the language's own patterns (`TagsSpec.patterns`) for what its tags.scm lacks (Java
 *     enums and records, C macros, C# structs, ...) or everything when it ships none.
 * Each candidate is then judged by the language's `define`, which says what chunk it is (or
 * none), and by one shared scope rule:
 *
 *   A definition is kept when every ancestor between it and the root is either a KEPT
 *   container definition (a class, struct, namespace, module, ...) or a node type the
 *   language lists in `through` (class bodies, preprocessor blocks, `extern "C" {}`, ERROR
 *   nodes...). So nothing inside a function body is a chunk, nor are members of an
 *   anonymous or local class, and a broken file keeps whatever tree-sitter recovered.
 *
 *   A function-like definition (`member`) directly inside a container that `owner`s its
 *   members (class, struct, interface, trait, Ruby module, Swift extension) is a 'method'
 *   named `Owner.name` after the INNERMOST owner; one with an explicit qualifier (C++
 *   `void A::f()`) is a 'method' `A.f` wherever it stands; anything else function-like is a
 *   'function'. Namespaces and packages contain but do not own.
 *
 * The chunk's range is `define`'s node (which may be a wrapper of the tagged node: the
 * `template <...>` above a class, the `typedef` around a struct), pulled up over the comments
 * attached above it (collect.ts); containers overlap their members.
 */
import { Query, type Language, type Node } from 'web-tree-sitter';
import { BudgetSpent, type ParseBudget } from './budget';
import { type ChunkCollector, type Siblings } from './collect';
import type { ChunkType } from './types';

/** One candidate: a node tagged `@definition.<kind>`, with its `@name` node if the pattern has one. */
export interface Tag {
  kind: string;
  node: Node;
  name: Node | null;
}

/** What a candidate becomes. */
export interface Definition {
  /** The chunk's range, and the node whose siblings hold the comments attached above it. */
  node: Node;
  name: string;
  /** The chunk type; for a `member` this is overridden ('method' or 'function'). */
  type: ChunkType;
  /** A function-like definition: a method inside an owner, else a function. */
  member?: boolean;
  /** A member's explicit owner (C++ `A::f`): always a method `qualifier.name`. */
  qualifier?: string;
  /** Definitions inside it are in scope (classes, namespaces, modules). */
  container?: boolean;
  /** The name its members are prefixed with; set it to make the container an owner. */
  ownerName?: string;
}

export interface TagsSpec {
  /** Extra query patterns, in tags.scm conventions (`@definition.<kind>`, optional `@name`). */
  patterns: string;
  define(tag: Tag): Definition | null;
  /** Ancestor node types a definition may sit in (besides kept containers, ERROR and the root). */
  through: ReadonlySet<string>;
  /** A finer check for an ancestor whose type is in `through`. */
  passes?(ancestor: Node): boolean;
}

/** The compiled query of one language. Reusable across files and Chunkers of one runtime. */
export class TagsQueries {
  private query: Query | null = null;
  /** True when the package's tags.scm compiled and is in use. */
  readonly usesPackageTags: boolean;

  constructor(
    language: Language,
    packageTags: string | null,
    readonly spec: TagsSpec,
  ) {
    // One query (one walk of the tree) for both sets of patterns.
    if (packageTags) {
      try {
        this.query = definitionsOnly(new Query(language, `${packageTags}\n${spec.patterns}`));
      } catch {
        // A tags.scm this runtime cannot compile: the language's own patterns still apply.
      }
    }
    this.usesPackageTags = this.query !== null;
    if (!this.query && spec.patterns.trim()) this.query = new Query(language, spec.patterns);
  }

  /** The candidates under `root`; throws BudgetSpent when `budget` runs out meanwhile. */
  tags(root: Node, budget?: ParseBudget): Tag[] {
    const out: Tag[] = [];
    if (!this.query) return out;
    const matches = this.query.matches(root, budget ? { progressCallback: budget.progress } : {});
    if (budget?.spent()) throw new BudgetSpent(budget.ms); // the query stopped: its matches are partial
    for (const match of matches) {
      let def: Node | null = null;
      let kind = '';
      let name: Node | null = null;
      for (const cap of match.captures) {
        if (cap.name.startsWith('definition.')) {
          def = cap.node;
          kind = cap.name.slice('definition.'.length);
        } else if (cap.name === 'name') name = cap.node;
      }
      if (def) out.push({ kind, node: def, name });
    }
    return out;
  }

  delete(): void {
    this.query?.delete();
    this.query = null;
  }
}

/** Disables the patterns without a `@definition.*` capture, and every capture but those and `@name`. */
function definitionsOnly(query: Query): Query {
  const defCaptures = query.captureNames
    .map((n, i) => (n.startsWith('definition.') ? i : -1))
    .filter((i) => i >= 0);
  for (let p = 0; p < query.patternCount(); p++) {
    const quantifiers = query.captureQuantifiers[p] ?? [];
    if (!defCaptures.some((i) => (quantifiers[i] ?? 0) !== 0)) query.disablePattern(p);
  }
  for (const n of new Set(query.captureNames))
    if (n !== 'name' && !n.startsWith('definition.')) query.disableCapture(n);
  return query;
}

interface Kept {
  /** Prefix for members, or null for a container that does not own (a namespace). */
  owner: string | null;
}

/**
 * Runs the queries over one tree and adds the chunks. Each candidate asks `budget` (judging one
 * climbs its ancestors, which costs as much as it is deep): BudgetSpent is thrown once it is spent.
 */
export function chunkTags(root: Node, queries: TagsQueries, c: ChunkCollector, budget?: ParseBudget): void {
  const { spec } = queries;
  const defs: { tag: Tag; def: Definition }[] = [];
  for (const tag of queries.tags(root, budget)) {
    budget?.check();
    let def: Definition | null;
    try {
      def = spec.define(tag);
    } catch {
      def = null; // odd recovered shapes: no chunk rather than no file
    }
    if (def && def.name) defs.push({ tag, def });
  }
  // Containers before their members: by start, the larger range first.
  defs.sort(
    (a, b) => a.def.node.startIndex - b.def.node.startIndex || b.def.node.endIndex - a.def.node.endIndex,
  );

  // A qualifier naming a namespace of this file is no owner (C++ `int ns::f() {}` is a function).
  const namespaces = new Set(
    defs
      .filter(({ def }) => def.container && def.ownerName === undefined)
      .map(({ def }) => lastSegment(def.name)),
  );
  const kept = new Map<number, Kept>();
  const seen = new Set<string>();
  const siblings = new SiblingIndex();
  for (const { tag, def } of defs) {
    budget?.check();
    const scope = scopeOf(def.node, kept, spec, root);
    if (scope === undefined) continue;
    let type = def.type;
    let name = def.name;
    if (def.member) {
      const qualifier = def.qualifier !== undefined && !namespaces.has(def.qualifier) ? def.qualifier : null;
      const owner = def.qualifier !== undefined ? qualifier : (scope?.owner ?? null);
      type = owner ? 'method' : 'function';
      if (owner) name = `${owner}.${name}`;
    }
    const key = `${def.node.id}\u0000${type}\u0000${name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (def.container) {
      const k: Kept = { owner: def.ownerName ?? null };
      kept.set(def.node.id, k);
      kept.set(tag.node.id, k);
    }
    c.add(def.node, name, type, siblings.at(def.node));
  }
}

function lastSegment(name: string): string {
  return name.split(/::|\\|\./).pop() ?? name;
}

/**
 * The innermost kept container around `node` (null at top level), or undefined when an
 * ancestor on the way is neither a kept container nor passable (the definition is dropped).
 */
function scopeOf(
  node: Node,
  kept: ReadonlyMap<number, Kept>,
  spec: TagsSpec,
  root: Node,
): Kept | null | undefined {
  for (let a = node.parent; a; a = a.parent) {
    const k = kept.get(a.id);
    if (k) return k;
    if (a.id === root.id) return null;
    if (a.type === 'ERROR') continue;
    if (!spec.through.has(a.type) || (spec.passes && !spec.passes(a))) return undefined;
  }
  return null;
}

/** Where a node sits among its parent's children; each parent's children are listed once. */
class SiblingIndex {
  private readonly byParent = new Map<number, { siblings: Siblings; index: Map<number, number> }>();

  at(node: Node): { siblings: Siblings; index: number } | undefined {
    const parent = node.parent;
    if (!parent) return undefined;
    let entry = this.byParent.get(parent.id);
    if (!entry) {
      const nodes = parent.children;
      entry = { siblings: { nodes }, index: new Map(nodes.map((n, i) => [n.id, i])) };
      this.byParent.set(parent.id, entry);
    }
    const index = entry.index.get(node.id);
    return index === undefined ? undefined : { siblings: entry.siblings, index };
  }
}

/** `(type) @definition.kind` for each node type: the own patterns of a language. */
export function patternsFor(types: Readonly<Record<string, string>>): string {
  return Object.entries(types)
    .map(([type, kind]) => `(${type}) @definition.${kind}`)
    .join('\n');
}

/** The `name` field's text, or null. */
export function fieldText(node: Node, field = 'name'): string | null {
  return node.childForFieldName(field)?.text ?? null;
}
