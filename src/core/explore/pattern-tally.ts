/**
 * Counting for explore's pattern analyzer: a Tally keeps, per key, how many sites were seen and
 * the first few as evidence; a FileScan is one file's view of it (sites by line, and keys counted
 * once per file). Keys are plain strings ("js.throw.new:QuarryError"); patterns*.ts turn the
 * counts into Patterns with `share`, which writes the "X: a of b unit (other: c)" description,
 * over Choices read from the tally with `pick` and `group`.
 */
import { clip, thousands } from './conventions';
import type { Evidence, Pattern } from './types';

export class Tally {
  private readonly counts = new Map<string, number>();
  private readonly evidence = new Map<string, Evidence[]>();

  constructor(readonly maxExamples: number) {}

  /** One site (or `n`) under `key`; `example` is called only while the key still wants examples. */
  add(key: string, example?: () => Evidence, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
    if (!example || this.maxExamples <= 0) return;
    const list = this.evidence.get(key);
    if (!list) this.evidence.set(key, [example()]);
    else if (list.length < this.maxExamples) list.push(example());
  }

  count(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  examples(key: string): Evidence[] {
    return this.evidence.get(key) ?? [];
  }

  /** The keys that start with `prefix`, with the rest of each key. */
  withPrefix(prefix: string): Array<{ key: string; rest: string; count: number }> {
    const out: Array<{ key: string; rest: string; count: number }> = [];
    for (const [key, count] of this.counts)
      if (key.startsWith(prefix)) out.push({ key, rest: key.slice(prefix.length), count });
    return out;
  }
}

/** One file's sites. */
export class FileScan {
  private readonly once = new Set<string>();

  constructor(
    readonly tally: Tally,
    readonly path: string,
    readonly raw: readonly string[],
    readonly code: readonly string[],
  ) {}

  /** Evidence for line i (0-based). */
  at(i: number): () => Evidence {
    return () => ({ path: this.path, line: i + 1, text: clip(this.raw[i] ?? '') });
  }

  /** A site on line i. */
  site(key: string, i: number, n = 1): void {
    this.tally.add(key, this.at(i), n);
  }

  /** `key` counted once for this file, with line i (or the path alone) as evidence. */
  file(key: string, i?: number): void {
    if (this.once.has(key)) return;
    this.once.add(key);
    this.tally.add(key, i === undefined ? () => ({ path: this.path }) : this.at(i));
  }

  has(key: string): boolean {
    return this.once.has(key);
  }
}

export interface Choice {
  /** The counted statement when this choice is the most common, e.g. "throws custom Error subclasses". */
  statement: string;
  /** Its name in the list of the other choices, e.g. "built-in errors". */
  label: string;
  count: number;
  examples: Evidence[];
}

/**
 * A pattern from a set of mutually exclusive choices: the most common one (the first on a tie)
 * is the statement, the others with a count are listed after it.
 *   "throws custom Error subclasses: 41 of 52 throw sites (built-in errors: 8, rethrown values: 3)"
 * Null when nothing was counted.
 */
export function share(name: string, choices: Choice[], unit: string, extra = ''): Pattern | null {
  const total = choices.reduce((sum, c) => sum + c.count, 0);
  if (total === 0) return null;
  let top = choices[0];
  for (const c of choices) if (c.count > top.count) top = c;
  const rest = choices
    .filter((c) => c !== top && c.count > 0)
    .map((c) => `${c.label}: ${thousands(c.count)}`);
  return {
    name,
    description: `${top.statement}: ${thousands(top.count)} of ${thousands(total)} ${unit}${rest.length > 0 ? ` (${rest.join(', ')})` : ''}${extra}`,
    examples: top.examples,
    count: top.count,
    total,
  };
}

/** A pattern that counts how many of some units show one thing: "try/catch: 84 blocks in 30 of 200 JS/TS files". */
export function portion(
  name: string,
  statement: string,
  count: number,
  total: number,
  unit: string,
  examples: Evidence[],
  extra = '',
): Pattern | null {
  if (total === 0) return null;
  return {
    name,
    description: `${statement}: ${thousands(count)} of ${thousands(total)} ${unit}${extra}`,
    examples,
    count,
    total,
  };
}

/** A choice read from the tally by key. */
export function pick(tally: Tally, key: string, statement: string, label: string): Choice {
  return { statement, label, count: tally.count(key), examples: tally.examples(key) };
}

/** Examples from several keys, the most counted first, up to the tally's limit. */
function examplesOf(tally: Tally, keys: string[]): Evidence[] {
  return keys
    .slice()
    .sort((a, b) => tally.count(b) - tally.count(a))
    .flatMap((k) => tally.examples(k))
    .slice(0, tally.maxExamples);
}

/** Several keys as one choice; `names` listed in the statement, most counted first. */
export function group(
  tally: Tally,
  prefix: string,
  names: string[],
  statement: string,
  label: string,
): Choice {
  const keys = names.map((n) => prefix + n);
  const sorted = names.slice().sort((a, b) => tally.count(prefix + b) - tally.count(prefix + a));
  const shown =
    sorted.length > 0 ? ` (${sorted.slice(0, 3).join(', ')}${sorted.length > 3 ? ', …' : ''})` : '';
  return {
    statement: statement + shown,
    label,
    count: keys.reduce((sum, k) => sum + tally.count(k), 0),
    examples: examplesOf(tally, keys),
  };
}
