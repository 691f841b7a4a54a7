/**
 * Peer parity: the line diff marks the same lines deleted and inserted as `git diff -U0`
 * (git's Myers + compaction + indent heuristic) on random code-like files, small ones and ones
 * large enough for git's common-tail cut and multimatch rule to matter.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LineInterner, splitLines } from './lines';
import { indentOfText } from './compact';
import { diffLineIds, type LineDiff } from './ops';
import { ByteLineInterner, deriveVersion, fullVersion, indentOf, lineCount } from './versions';
import { gitTrimmedTailLines } from './tail';

const dir = mkdtempSync(join(tmpdir(), 'quarry-diff-parity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };

type Changes = { del: number[]; ins: number[] };

/** The 1-based lines `git diff -U0` deletes from A and inserts into B, from the hunk headers of one file's diff. */
function hunkLines(diff: string): Changes {
  const del: number[] = [];
  const ins: number[] = [];
  for (const m of diff.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const [a0, an, b0, bn] = [
      Number(m[1]),
      m[2] === undefined ? 1 : Number(m[2]),
      Number(m[3]),
      m[4] === undefined ? 1 : Number(m[4]),
    ];
    for (let i = 0; i < an; i++) del.push(a0 + i);
    for (let i = 0; i < bn; i++) ins.push(b0 + i);
  }
  return { del, ins };
}

/**
 * What `git diff -U0` deletes and inserts for each pair, from one git process: the pairs are
 * written as a/<i> and b/<i> and compared as two folders (`git diff --no-index a b` diffs each
 * file with its namesake exactly as it diffs two files; one spawn, not one per pair).
 */
function gitChangesOf(pairs: Array<[string, string]>): Changes[] {
  const run = mkdtempSync(join(dir, 'run-'));
  mkdirSync(join(run, 'a'));
  mkdirSync(join(run, 'b'));
  pairs.forEach(([a, b], i) => {
    writeFileSync(join(run, 'a', String(i)), a);
    writeFileSync(join(run, 'b', String(i)), b);
  });
  const r = spawnSync(
    'git',
    ['diff', '--no-index', '--no-color', '--no-ext-diff', '--no-renames', '-U0', 'a', 'b'],
    {
      cwd: run,
      env: ENV,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  if (r.status !== 0 && r.status !== 1) throw new Error(`git diff failed: ${r.stderr}`);
  const byPair: Changes[] = pairs.map(() => ({ del: [], ins: [] }));
  // one section per file that differs: "diff --git a/a/<i> b/b/<i>", its headers, its hunks
  for (const section of r.stdout.split(/^(?=diff --git )/m)) {
    const name = /^diff --git a\/a\/(\d+) b\/b\/\1$/m.exec(section);
    if (!name) {
      if (section.trim()) throw new Error(`unexpected git diff output: ${section.slice(0, 200)}`);
      continue;
    }
    byPair[Number(name[1])] = hunkLines(section);
  }
  return byPair;
}

/** Ours, with the same common-tail cut git makes before a context-free diff: through text (the diff view) or bytes (blame). */
function ourChanges(a: string, b: string, via: 'text' | 'bytes'): Changes {
  const enc = new TextEncoder();
  const [ab, bb] = [enc.encode(a), enc.encode(b)];
  const tail = gitTrimmedTailLines(ab, bb);
  let d: LineDiff;
  if (via === 'text') {
    const sa = splitLines(a);
    const sb = splitLines(b);
    const interner = new LineInterner();
    const ia = interner.ids32(sa).subarray(0, sa.lines.length - tail);
    const ib = interner.ids32(sb).subarray(0, sb.lines.length - tail);
    d = diffLineIds(ia, ib, { a: (i) => indentOfText(sa.lines[i]), b: (i) => indentOfText(sb.lines[i]) });
  } else {
    const interner = new ByteLineInterner();
    const vb = fullVersion(bb, interner);
    const va = deriveVersion(vb, ab, interner);
    d = diffLineIds(va.ids.subarray(0, lineCount(va) - tail), vb.ids.subarray(0, lineCount(vb) - tail), {
      a: (i) => indentOf(va, i),
      b: (i) => indentOf(vb, i),
    });
  }
  const del: number[] = [];
  const ins: number[] = [];
  for (const op of d.ops) {
    for (let i = 0; i < op.n; i++) {
      if (op.op === 'delete') del.push(op.a + i + 1);
      if (op.op === 'insert') ins.push(op.b + i + 1);
    }
  }
  return { del, ins };
}

const CODE = [
  '',
  '',
  '}',
  '  }',
  'function f() {',
  '  return 1;',
  '  x();',
  '    y();',
  '\t\tz();',
  'if (a) {',
  '  if (b) {',
  'a',
  'b',
  '// note',
];

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x100000000;
  };
}

/** A random file and a random edit of it (inserted, deleted, replaced and duplicated blocks). */
function pair(seed: number, lines: number): [string, string] {
  const r = rng(seed);
  const pick = () => CODE[Math.floor(r() * CODE.length)];
  const a = Array.from({ length: lines }, pick);
  const b = a.slice();
  const edits = 1 + Math.floor(r() * 5);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(r() * (b.length + 1));
    const n = 1 + Math.floor(r() * 4);
    const kind = r();
    if (kind < 0.35) b.splice(at, 0, ...Array.from({ length: n }, pick));
    else if (kind < 0.6) b.splice(at, n);
    else if (kind < 0.85) b.splice(at, n, ...Array.from({ length: n }, pick));
    else b.splice(at, 0, ...b.slice(Math.max(0, at - n), at)); // a repeated block: the ambiguous case
  }
  const eol = (xs: string[]) => xs.join('\n') + (r() < 0.9 ? '\n' : '');
  return [eol(a), eol(b)];
}

describe('line diff against git diff -U0', { timeout: 120_000 }, () => {
  it('small files (git cuts no tail)', () => {
    const mismatches: string[] = [];
    const seeds = Array.from({ length: 150 }, (_, i) => i + 1);
    const pairs = seeds.map((seed) => pair(seed, 5 + (seed % 30)));
    const git = gitChangesOf(pairs);
    for (const [i, seed] of seeds.entries()) {
      const [a, b] = pairs[i];
      const theirs = JSON.stringify(git[i]);
      for (const via of ['text', 'bytes'] as const) {
        const ours = JSON.stringify(ourChanges(a, b, via));
        if (ours !== theirs) mismatches.push(`seed ${seed} (${via}): ours ${ours} git ${theirs}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('larger files (common-tail cut, frequent lines among unmatched ones)', () => {
    const mismatches: string[] = [];
    const seeds = Array.from({ length: 60 }, (_, i) => 1000 + i);
    const pairs = seeds.map((seed) => pair(seed, 200 + (seed % 300)));
    const git = gitChangesOf(pairs);
    for (const [i, seed] of seeds.entries()) {
      const [a, b] = pairs[i];
      const theirs = JSON.stringify(git[i]);
      for (const via of ['text', 'bytes'] as const) {
        const ours = JSON.stringify(ourChanges(a, b, via));
        if (ours !== theirs) mismatches.push(`seed ${seed} (${via}): ours ${ours} git ${theirs}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('the tail cut counts whole identical lines only', () => {
    const enc = new TextEncoder();
    const common = Array.from({ length: 200 }, (_, i) => `common line ${i}`).join('\n') + '\n';
    expect(gitTrimmedTailLines(enc.encode('a\n' + common), enc.encode('b\n' + common))).toBeGreaterThan(50);
    expect(gitTrimmedTailLines(enc.encode('a\nshort\n'), enc.encode('b\nshort\n'))).toBe(0);
  });
});
