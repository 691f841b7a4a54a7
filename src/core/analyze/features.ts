/**
 * Feature status: where a feature is referenced, whether code implements it, whether a flag
 * guards it, and whether tests cover it. One pass over every text file of the workspace.
 *
 *   references     every line where a spelling of the name appears (names.ts), with the
 *                  file's category (code / test / docs / config / other) and whether the hit
 *                  is inside a comment (the parser's comment nodes for JS/TS, a lexer for
 *                  other languages). One reference per line.
 *   implemented    at least one reference in a code file outside comments. Tests, docs,
 *                  config and comments never count.
 *   featureFlagged a flag of the inventory (flags.ts: SDK calls, env vars, config objects;
 *                  test files excluded) whose name spells the feature.
 *   flagName       the best of those flags: an SDK flag before an env var before a config
 *                  key, then the most referenced, then by name.
 *   testCoverage   a reference outside comments in a test file (`*.test.*`, `*.spec.*`,
 *                  `__tests__/`, `test/`, `tests/`, `e2e/`, `cypress/`), or a test file whose
 *                  path spells the feature.
 */
import { lineAtOffset } from '../chunk/fallback';
import { minifiedDetail } from '../chunk/minified';
import { toQuarryError } from '../errors';
import type { Yielder } from '../jobs/yielder';
import type { Workspace } from '../source/workspace';
import type { Skipped } from '../walk/policy';
import { categoryOf, type FileCategory, inRanges, lexicalComments } from './files';
import { SDK_LABELS, SDK_ORDER, type FlagSdk } from './flag-sdks';
import { envFileFlags, flagsInTree, isEnvFile, type FileFlags, type FlagRef } from './flags';
import { compileNameMatcher, featureWords, nameVariants, type NameMatcher } from './names';
import { scriptLanguageOf, type SourceParsers } from './parsers';
import { memoByContent, scanFiles } from './scan';
import { visit } from './syntax';

export interface FeatureReference {
  path: string;
  /** The matching line with up to two lines either side, joined by '\n'. */
  context: string;
  line: number;
  /** 1-based column of the first hit on the line, and the text it matched. */
  column: number;
  match: string;
  /** Line number of the first context line. */
  contextStartLine: number;
  category: FileCategory;
  comment: boolean;
}

export interface FlagPlace {
  path: string;
  line: number;
  kind: 'check' | 'definition';
}

export interface FlagInfo {
  name: string;
  sdk: FlagSdk;
  /** Human name of the SDK ('LaunchDarkly', 'environment variable'...). */
  sdkLabel: string;
  references: number;
  definitions: number;
  files: number;
  /** The first places (up to 50), in walk order. */
  places: FlagPlace[];
}

export interface FlagInventory {
  flags: FlagInfo[];
  total: number;
}

interface ScriptFacts {
  flags: FileFlags;
  /** Flat comment ranges (start, end, ...), sorted. */
  comments: number[];
  /** Why the file counts as minified (chunk/minified.ts): not parsed, no flags, comments found lexically. */
  minified?: string;
}

const CONTEXT_LINES = 2;
const MAX_CONTEXT_LINE_CHARS = 500;
const MAX_FLAG_PLACES = 50;

function commentRanges(root: import('web-tree-sitter').Node): number[] {
  const out: number[] = [];
  visit(root, (n) => {
    if (n.type === 'comment' || n.type === 'html_comment') {
      out.push(n.startIndex, n.endIndex);
      return false;
    }
    return true;
  });
  return out;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  // a final newline ends the last line; it does not start another
  if (starts.length > 1 && starts[starts.length - 1] === text.length) starts.pop();
  return starts;
}

function lineText(text: string, starts: number[], i: number): string {
  const s = starts[i];
  let e = i + 1 < starts.length ? starts[i + 1] - 1 : text.length;
  if (e > s && text.charCodeAt(e - 1) === 10) e--;
  if (e > s && text.charCodeAt(e - 1) === 13) e--;
  const line = text.slice(s, e);
  return line.length > MAX_CONTEXT_LINE_CHARS
    ? line.slice(0, MAX_CONTEXT_LINE_CHARS) + ' [truncated...]'
    : line;
}

export interface ScanFlagsResult {
  inventory: FlagInventory;
  filesScanned: number;
}

/** Accumulates flag references across files and resolves Vercel flag variables at the end. */
class FlagCollector {
  private readonly refs: Array<FlagRef & { path: string }> = [];
  private readonly vercelVars = new Map<string, string>();
  private readonly callsByFile: Array<{
    path: string;
    calls: Record<string, number[]>;
    declared: Set<string>;
  }> = [];

  addFile(path: string, facts: FileFlags): void {
    for (const r of facts.refs) this.refs.push({ ...r, path });
    for (const [v, key] of Object.entries(facts.vercelFlags)) this.vercelVars.set(v, key);
    this.callsByFile.push({ path, calls: facts.calls, declared: new Set(Object.keys(facts.vercelFlags)) });
  }

  addRefs(path: string, refs: FlagRef[]): void {
    for (const r of refs) this.refs.push({ ...r, path });
  }

  inventory(): FlagInventory {
    const all = [...this.refs];
    // calls of a Vercel flag variable check that flag (matched by name across files)
    for (const f of this.callsByFile) {
      for (const [callee, lines] of Object.entries(f.calls)) {
        const key = this.vercelVars.get(callee);
        if (key === undefined) continue;
        for (const line of lines) all.push({ name: key, sdk: 'vercel', line, kind: 'check', path: f.path });
      }
    }
    const byKey = new Map<string, FlagInfo & { fileSet: Set<string>; seen: Set<string> }>();
    for (const r of all) {
      const k = `${r.sdk}\u0000${r.name}`;
      let info = byKey.get(k);
      if (!info) {
        info = {
          name: r.name,
          sdk: r.sdk,
          sdkLabel: SDK_LABELS[r.sdk],
          references: 0,
          definitions: 0,
          files: 0,
          places: [],
          fileSet: new Set(),
          seen: new Set(),
        };
        byKey.set(k, info);
      }
      const placeKey = `${r.path}:${r.line}:${r.kind}`;
      if (info.seen.has(placeKey)) continue; // one place per line and kind
      info.seen.add(placeKey);
      if (r.kind === 'definition') info.definitions++;
      else info.references++;
      info.fileSet.add(r.path);
      if (info.places.length < MAX_FLAG_PLACES)
        info.places.push({ path: r.path, line: r.line, kind: r.kind });
    }
    const flags = [...byKey.values()].map(({ fileSet, seen: _seen, ...rest }) => ({
      ...rest,
      files: fileSet.size,
    }));
    flags.sort(
      (a, b) =>
        SDK_ORDER.indexOf(a.sdk) - SDK_ORDER.indexOf(b.sdk) ||
        (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    );
    return { flags, total: flags.length };
  }
}

function scriptFacts(
  parsers: SourceParsers,
  file: { source: import('../source/types').FileSource; rel: string; text: string },
): ScriptFacts {
  return memoByContent('script-facts', file.source, file.rel, file.text, () => {
    // a bundle's flags are its libraries' internals, and parsing one costs seconds: left out, as the indexes do
    const minified = minifiedDetail(file.rel, file.text);
    if (minified !== null)
      return {
        flags: { refs: [], vercelFlags: {}, calls: {} },
        comments: lexicalComments(file.rel, file.text),
        minified,
      };
    return parsers.withTree(file.rel, file.text, (root) => ({
      flags: flagsInTree(root),
      comments: commentRanges(root),
    }));
  });
}

/**
 * A file's comment ranges where its facts gave none (a test file, or a script that failed to
 * parse): from its tree, else lexically (a minified script's too: no parse of a bundle).
 */
function commentsOf(
  parsers: SourceParsers,
  file: { source: import('../source/types').FileSource; rel: string; text: string },
  script: boolean,
  category: FileCategory,
): number[] {
  if (script && minifiedDetail(file.rel, file.text) === null) {
    try {
      return memoByContent('comments', file.source, file.rel, file.text, () =>
        parsers.withTree(file.rel, file.text, commentRanges),
      );
    } catch {
      return lexicalComments(file.rel, file.text);
    }
  }
  return script || category === 'code' || category === 'test' ? lexicalComments(file.rel, file.text) : [];
}

export interface FlagInventoryOptions {
  signal?: AbortSignal;
  yielder?: Yielder;
}

/** Every feature flag of the workspace (test files excluded), with its SDK and reference counts. */
export async function flagInventory(
  workspace: Workspace,
  parsers: SourceParsers,
  options: FlagInventoryOptions = {},
): Promise<ScanFlagsResult & { skipped: Skipped[] }> {
  const collector = new FlagCollector();
  const skipped: Skipped[] = [];
  const filesScanned = await scanFiles(
    workspace,
    {
      acceptFile: (rel) => !isTestLike(rel) && (scriptLanguageOf(rel) !== null || isEnvFile(rel)),
      signal: options.signal,
      yielder: options.yielder,
      onSkip: (s) => skipped.push(s),
    },
    (file) => {
      if (isEnvFile(file.rel)) {
        collector.addRefs(file.path, envFileFlags(file.text));
        return;
      }
      try {
        const facts = scriptFacts(parsers, file);
        if (facts.minified) skipped.push({ path: file.path, reason: 'minified', detail: facts.minified });
        else collector.addFile(file.path, facts.flags);
      } catch (err) {
        const qe = toQuarryError(err);
        if (qe.code === 'Cancelled') throw qe;
        skipped.push({ path: file.path, reason: 'unreadable', detail: qe.message });
      }
    },
  );
  return { inventory: collector.inventory(), filesScanned, skipped };
}

const isTestLike = (rel: string) => categoryOf(rel) === 'test';

export interface FeatureStatusOptions {
  maxReferences?: number;
  signal?: AbortSignal;
  yielder?: Yielder;
}

export interface FeatureStatus {
  featureName: string;
  implemented: boolean;
  featureFlagged: boolean;
  flagName: string | null;
  testCoverage: boolean;
  references: FeatureReference[];
  summary: string;
  /** Added fields. */
  words: string[];
  variants: string[];
  totalReferences: number;
  counts: { code: number; test: number; docs: number; config: number; other: number; comments: number };
  flags: FlagInfo[];
  testFiles: string[];
  codeFiles: string[];
  filesScanned: number;
  skipped: Skipped[];
  inventory: FlagInventory;
}

const CATEGORY_RANK: Readonly<Record<FileCategory, number>> = {
  code: 0,
  config: 1,
  test: 2,
  docs: 3,
  other: 4,
};

export async function featureStatus(
  workspace: Workspace,
  parsers: SourceParsers,
  featureName: string,
  options: FeatureStatusOptions = {},
): Promise<FeatureStatus> {
  const words = featureWords(featureName);
  const matcher: NameMatcher = compileNameMatcher(words);
  const maxReferences = options.maxReferences ?? 50;
  const collector = new FlagCollector();
  const skipped: Skipped[] = [];
  const refs: FeatureReference[] = [];
  const testFiles = new Set<string>();
  const codeFiles = new Set<string>();

  const filesScanned = await scanFiles(
    workspace,
    { signal: options.signal, yielder: options.yielder, onSkip: (s) => skipped.push(s) },
    (file) => {
      const category = categoryOf(file.rel);
      const script = scriptLanguageOf(file.rel) !== null;
      const hits = matcher.findAll(file.text);
      if (category === 'test' && matcher.test(file.rel)) testFiles.add(file.path);
      let comments: number[] | null = null;
      if (script && category !== 'test') {
        try {
          const facts = scriptFacts(parsers, file);
          if (facts.minified) skipped.push({ path: file.path, reason: 'minified', detail: facts.minified });
          else collector.addFile(file.path, facts.flags);
          comments = facts.comments;
        } catch (err) {
          const qe = toQuarryError(err);
          if (qe.code === 'Cancelled') throw qe;
          skipped.push({ path: file.path, reason: 'unreadable', detail: qe.message });
        }
      } else if (category !== 'test' && isEnvFile(file.rel)) {
        collector.addRefs(file.path, envFileFlags(file.text));
      }
      if (!hits.length) return;
      comments ??= commentsOf(parsers, file, script, category);
      const starts = lineStarts(file.text);
      let lastLine = -1;
      for (const [s, e] of hits) {
        const li = lineAtOffset(starts, s);
        if (li === lastLine) continue; // one reference per line: its first hit
        lastLine = li;
        const comment = inRanges(comments, s);
        const first = Math.max(0, li - CONTEXT_LINES);
        const last = Math.min(starts.length - 1, li + CONTEXT_LINES);
        const context: string[] = [];
        for (let k = first; k <= last; k++) context.push(lineText(file.text, starts, k));
        refs.push({
          path: file.path,
          context: context.join('\n'),
          line: li + 1,
          column: s - starts[li] + 1,
          match: file.text.slice(s, e),
          contextStartLine: first + 1,
          category,
          comment,
        });
        if (!comment && category === 'test') testFiles.add(file.path);
        if (!comment && category === 'code') codeFiles.add(file.path);
      }
    },
  );

  const inventory = collector.inventory();
  const flags = inventory.flags.filter((f) => matcher.test(f.name));
  const best = [...flags].sort(
    (a, b) =>
      flagClass(a.sdk) - flagClass(b.sdk) ||
      b.references + b.definitions - (a.references + a.definitions) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  )[0];

  const counts = { code: 0, test: 0, docs: 0, config: 0, other: 0, comments: 0 };
  for (const r of refs) {
    if (r.comment) counts.comments++;
    else counts[r.category]++;
  }
  const ordered = refs
    .map((r, i) => ({ r, i }))
    .sort((a, b) => rank(a.r) - rank(b.r) || a.i - b.i)
    .map((x) => x.r);

  const status: FeatureStatus = {
    featureName,
    implemented: counts.code > 0,
    featureFlagged: flags.length > 0,
    flagName: best ? best.name : null,
    testCoverage: testFiles.size > 0,
    references: ordered.slice(0, maxReferences),
    summary: '',
    words,
    variants: nameVariants(words),
    totalReferences: refs.length,
    counts,
    flags,
    testFiles: [...testFiles],
    codeFiles: [...codeFiles],
    filesScanned,
    skipped,
    inventory,
  };
  status.summary = summarize(status, best);
  return status;
}

function flagClass(sdk: FlagSdk): number {
  return sdk === 'env' ? 1 : sdk === 'config' ? 2 : 0;
}

function rank(r: FeatureReference): number {
  return r.comment ? 5 : CATEGORY_RANK[r.category];
}

function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}

function listFiles(files: string[], max = 3): string {
  const shown = files.slice(0, max).join(', ');
  return files.length > max ? `${shown} and ${plural(files.length - max, 'more file')}` : shown;
}

/** One plain-language paragraph: implemented? flagged? tested? where? */
export function summarize(s: FeatureStatus, best: FlagInfo | undefined): string {
  const name = `"${s.featureName}"`;
  const parts: string[] = [];
  if (s.totalReferences === 0 && !s.flags.length) {
    return `No references to ${name} were found in ${plural(s.filesScanned, 'file')} (searched as ${s.variants.slice(0, 5).join(', ')}). It does not appear to be implemented, feature-flagged or tested.`;
  }
  if (s.implemented) {
    parts.push(
      `${name} is implemented: ${plural(s.counts.code, 'code reference')} in ${plural(s.codeFiles.length, 'source file')} (${listFiles(s.codeFiles)}).`,
    );
  } else {
    const where: string[] = [];
    if (s.counts.comments) where.push(plural(s.counts.comments, 'comment'));
    if (s.counts.test) where.push(plural(s.counts.test, 'test reference'));
    if (s.counts.docs) where.push(plural(s.counts.docs, 'documentation reference'));
    if (s.counts.config) where.push(plural(s.counts.config, 'config reference'));
    if (s.counts.other) where.push(plural(s.counts.other, 'other reference'));
    parts.push(
      where.length
        ? `${name} does not appear to be implemented: no code references it outside comments; it is mentioned in ${where.join(', ')}.`
        : `${name} does not appear to be implemented: no code references it outside comments.`,
    );
  }
  if (best) {
    const others = s.flags.length - 1;
    const uses = best.references + best.definitions;
    parts.push(
      `It is behind the ${SDK_LABELS[best.sdk]} flag "${best.name}" (${plural(uses, 'place')} in ${plural(best.files, 'file')})` +
        (others > 0
          ? `, and ${plural(others, 'more related flag')}: ${s.flags
              .filter((f) => f !== best)
              .map((f) => `"${f.name}"`)
              .slice(0, 3)
              .join(', ')}.`
          : '.'),
    );
  } else parts.push('No feature flag for it was found.');
  parts.push(
    s.testCoverage
      ? `Tests cover it: ${plural(s.testFiles.length, 'test file')} (${listFiles(s.testFiles)}).`
      : 'No test references it.',
  );
  if (s.implemented && s.counts.docs) parts.push(`It is documented in ${plural(s.counts.docs, 'place')}.`);
  return parts.join(' ');
}
