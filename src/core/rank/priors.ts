/**
 * How much a chunk counts before any query word is read (issue 31): a prior from its kind (a
 * definition over a documentation section over a config key, a style rule or a block of
 * lines), from its file's role (source over tests, docs, changelogs, locales, snapshots...,
 * the one rule in source/file-role.ts) and from being a declaration rather than a definition
 * (a C prototype in a header, a TypeScript overload signature, `declare`, a .d.ts file), and
 * from being a barrel: a chunk that only imports, re-exports or lists names.
 *
 * The prior multiplies a hit's score and weighs the chunk in the term statistics (see
 * weightedStats), so thousands of locale keys or snapshot blocks neither outrank code nor
 * collapse a code word's idf. A chunk the query names keeps its whole weight: its symbol is the
 * query, every word of its symbol is in the query, or the query says its role ("test",
 * "changelog", "locale"...). The numbers were chosen on the tuning part of the labelled set
 * (bench/semantic); docs/design.md has the measurements.
 */
import type { ChunkType } from '../chunk/types';
import { fileRole, type FileRole } from '../source/file-role';
import type { IndexedChunk } from './indexed-chunk';
import { SNIPPET_CHARS } from './indexed-chunk';

/** Per kind: code definitions count whole; the rest only as much as they are usually asked for. */
export const KIND_PRIOR: Readonly<Record<ChunkType, number>> = {
  function: 1,
  method: 1,
  class: 1,
  interface: 1,
  type: 1,
  enum: 1,
  const: 1,
  component: 1,
  struct: 1,
  trait: 1,
  impl: 1,
  module: 1,
  macro: 0.8,
  section: 0.75,
  element: 0.6,
  key: 0.5,
  rule: 0.45,
  block: 0.7,
};

/**
 * Per file role. Vendored code counts nearly whole: a package that vendors a library is often
 * asked about that library (libxmljs2's C sources are vendor/libxml), yet its own code comes
 * first (babel's lib/vendor/import-meta-resolve.js); text results list vendored files last.
 */
export const ROLE_PRIOR: Readonly<Record<FileRole, number>> = {
  source: 1,
  vendored: 0.8,
  example: 0.8,
  docs: 0.75,
  config: 0.7,
  test: 0.55,
  fixture: 0.4,
  generated: 0.4,
  changelog: 0.35,
  locale: 0.3,
  snapshot: 0.25,
};

/** A declaration (prototype, overload signature, `declare`) beside the definition it announces. */
export const DECLARATION_PRIOR = 0.6;
/**
 * A barrel: a chunk that only imports, re-exports or lists names (isomorphic-git's src/index.js,
 * `export * from`, `module.exports = require(...)`). It holds every API name and says nothing of
 * what any does.
 */
export const REEXPORT_PRIOR = 0.4;

/** Query words that name a role: said in the query, the role's files count whole. */
const ROLE_WORDS: Readonly<Partial<Record<FileRole, readonly string[]>>> = {
  test: ['test', 'tests', 'spec', 'specs', 'testing', 'unittest'],
  snapshot: ['snapshot', 'snapshots', 'snap'],
  fixture: ['fixture', 'fixtures', 'testdata'],
  locale: ['locale', 'locales', 'translation', 'translations', 'i18n', 'l10n', 'language', 'languages'],
  changelog: ['changelog', 'changes', 'release', 'releases', 'history', 'news'],
  docs: ['doc', 'docs', 'documentation', 'readme', 'guide', 'manual'],
  config: ['config', 'configuration', 'package', 'settings', 'manifest'],
  generated: ['generated'],
  example: ['example', 'examples', 'demo', 'sample'],
};

export interface ChunkPrior {
  role: FileRole;
  /** the chunk is a declaration of something defined elsewhere */
  declaration: boolean;
  /** the chunk only imports, re-exports or lists names (a barrel) */
  reexports: boolean;
  /** kind x role x declaration, before the query is read */
  weight: number;
}

const HEADER = /\.(h|hh|hpp|hxx|h\+\+)$/i;
const C_FAMILY = /\.(c|cc|cpp|cxx|c\+\+|m|mm)$/i;
const TS = /\.(ts|tsx|mts|cts)$/i;
const CALLABLE: ReadonlySet<ChunkType> = new Set(['function', 'method']);

/** Whether a function or method chunk only declares it: a header prototype, an overload signature, `declare`, a .d.ts. */
export function isDeclaration(chunk: Pick<IndexedChunk, 'path' | 'chunkType' | 'snippet'>): boolean {
  if (!CALLABLE.has(chunk.chunkType)) return false;
  if (/\.d\.[cm]?ts$/i.test(chunk.path)) return true;
  const text = chunk.snippet.trimEnd();
  if (/^(export\s+)?(default\s+)?declare\s/.test(text.trimStart())) return true;
  // the whole chunk is in its snippet and ends as a prototype does: `int f(void);`, `f(a: T): U;`
  if (text.length >= SNIPPET_CHARS - 1) return false;
  if (!text.endsWith(';')) return false;
  if (HEADER.test(chunk.path) || C_FAMILY.test(chunk.path)) return !text.endsWith('};');
  // TypeScript: an overload signature `function f(a: T): U;` or `f(a: T): U;`, not `const f = (a) => g(a);`
  return (
    TS.test(chunk.path) &&
    !/^(export\s+)?(const|let|var)\s/.test(text.trimStart()) &&
    /\)\s*(:\s*[^;]+)?;$/.test(text)
  );
}

const LISTING_LINE =
  /^\s*(?:import\b.*\bfrom\s*['"].*|import\s+['"].*|export\s+\*.*|export\s+(?:type\s+)?\{.*\}\s*from\s*['"].*|export\s+(?:default\s+)?\{.*|(?:module\.)?exports(?:\.[\w$]+)?\s*=\s*require\(.*|(?:const|var|let)\s+[\w${}\s,]+=\s*require\(.*|[A-Za-z_$][\w$]*\s*(?::\s*[A-Za-z_$][\w$.]*)?\s*,?\s*|\}\s*;?\s*)$/;

/** Whether a chunk only imports, re-exports or lists names: four lines or more, nine in ten of them such lines. */
export function isReexportList(chunk: Pick<IndexedChunk, 'snippet'>): boolean {
  const lines = chunk.snippet.split('\n').filter((l) => l.trim() !== '');
  // a snippet cut at SNIPPET_CHARS ends inside a line
  if (chunk.snippet.length >= SNIPPET_CHARS - 1) lines.pop();
  if (lines.length < 4) return false;
  let listing = 0;
  for (const l of lines) if (LISTING_LINE.test(l)) listing++;
  return listing >= lines.length * 0.9;
}

const roleCache = new Map<string, FileRole>();
function roleOf(path: string): FileRole {
  let role = roleCache.get(path);
  if (role === undefined) {
    if (roleCache.size > 100_000) roleCache.clear();
    roleCache.set(path, (role = fileRole(path)));
  }
  return role;
}

/** The chunk's prior before the query is read (kind x role x declaration). */
export function chunkPrior(chunk: IndexedChunk): ChunkPrior {
  const role = roleOf(chunk.path);
  const declaration = isDeclaration(chunk);
  const reexports = isReexportList(chunk);
  const weight =
    (KIND_PRIOR[chunk.chunkType] ?? 1) *
    ROLE_PRIOR[role] *
    (declaration ? DECLARATION_PRIOR : 1) *
    (reexports ? REEXPORT_PRIOR : 1);
  return { role, declaration, reexports, weight };
}

/** The roles a query names by one of its words. */
export function rolesNamed(words: readonly string[]): Set<FileRole> {
  const named = new Set<FileRole>();
  for (const [role, list] of Object.entries(ROLE_WORDS) as [FileRole, readonly string[]][]) {
    if (list.some((w) => words.includes(w))) named.add(role);
  }
  return named;
}

/** What a hit's score was multiplied by, and why (the parts below 1: "key", "locale file", "declaration"). */
export interface QueryPrior {
  value: number;
  discounts: string[];
}

/**
 * The prior a hit is multiplied by: its chunk's, with the kind part lifted when the query names
 * the chunk (`named`: exact symbol, or every word of its symbol is a query word) and both parts
 * lifted when the query says the chunk's role. A declaration stays below its definition always.
 */
export function queryPrior(
  chunk: IndexedChunk,
  prior: ChunkPrior,
  named: boolean,
  roles: ReadonlySet<FileRole>,
): QueryPrior {
  // a role the query says lifts its files' kinds too: a test is blocks, a locale keys
  const said = roles.has(prior.role);
  const kind = named || said ? 1 : (KIND_PRIOR[chunk.chunkType] ?? 1);
  const role = named || said ? 1 : ROLE_PRIOR[prior.role];
  const discounts: string[] = [];
  if (kind < 1) discounts.push(chunk.chunkType);
  if (role < 1) discounts.push(`${prior.role} file`);
  if (prior.declaration) discounts.push('declaration');
  const barrel = prior.reexports && !named;
  if (barrel) discounts.push('re-exports');
  return {
    value: kind * role * (prior.declaration ? DECLARATION_PRIOR : 1) * (barrel ? REEXPORT_PRIOR : 1),
    discounts,
  };
}

interface WeightTable {
  generation: number;
  weights: Float32Array;
  total: number;
}

/** Per index: every chunk's prior weight, rebuilt when the index changes. */
const tables = new WeakMap<object, WeightTable>();

export interface WeightedIndex {
  readonly generation: number;
  readonly idSpan: number;
  chunkById(id: number): IndexedChunk | null;
}

/**
 * The prior weight of every chunk id and their sum: the term statistics' document count is
 * this sum and a term's document frequency the sum over its chunks, so a locale key counts
 * 0.15 of a document and a function 1.
 */
export function weightedStats(index: WeightedIndex): { weights: Float32Array; total: number } {
  const cached = tables.get(index);
  if (cached && cached.generation === index.generation && cached.weights.length === index.idSpan)
    return cached;
  const weights = new Float32Array(index.idSpan);
  let total = 0;
  for (let id = 0; id < weights.length; id++) {
    const chunk = index.chunkById(id);
    if (!chunk) continue;
    const w = chunkPrior(chunk).weight;
    weights[id] = w;
    total += w;
  }
  const table = { generation: index.generation, weights, total };
  tables.set(index, table);
  return table;
}
