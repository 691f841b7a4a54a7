/** The fallback chunker: blocks of lines for files without a parser. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkBlocks, MAX_CHARS, MAX_LINES, TARGET_LINES } from './fallback';
import type { Chunk } from './types';

const spans = (chunks: Chunk[]) => chunks.map((c) => [c.startLine, c.endLine, c.symbolName]);

/** The invariants every output must keep, whatever the input. */
function checkInvariants(text: string, chunks: Chunk[]): void {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const blank = (i: number) => /^\s*$/.test(i === 0 ? lines[0].replace(/^\uFEFF/, '') : lines[i]);
  const owner = new Array<number>(lines.length).fill(-1);
  let prevEnd = 0;
  chunks.forEach((c, k) => {
    expect(c.chunkType).toBe('block');
    expect(c.startLine).toBeGreaterThan(prevEnd); // sorted, no overlap
    expect(c.endLine).toBeGreaterThanOrEqual(c.startLine);
    expect(c.endLine).toBeLessThanOrEqual(lines.length);
    expect(blank(c.startLine - 1)).toBe(false);
    expect(blank(c.endLine - 1)).toBe(false);
    expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(MAX_LINES);
    const chars = lines
      .slice(c.startLine - 1, c.endLine)
      .reduce((n, l) => n + l.replace(/\r$/, '').length + 1, 0);
    if (c.startLine !== c.endLine) expect(chars).toBeLessThanOrEqual(MAX_CHARS + 1); // the BOM counts in the test, not in the chunker
    for (let i = c.startLine - 1; i < c.endLine; i++) owner[i] = k;
    prevEnd = c.endLine;
  });
  for (let i = 0; i < lines.length; i++)
    if (!blank(i)) expect(owner[i], `line ${i + 1}`).toBeGreaterThanOrEqual(0);
}

const perlSub = (name: string, body: number) => [
  `sub ${name} {`,
  ...Array.from({ length: body }, (_, i) => `    my $v${i} = shift // ${i};`),
  '}',
];

describe('chunkBlocks', () => {
  it('an empty or blank file has no blocks', () => {
    expect(chunkBlocks('a.txt', '')).toEqual([]);
    expect(chunkBlocks('a.txt', '\n\n  \n\t\r\n')).toEqual([]);
    expect(chunkBlocks('a.txt', '\uFEFF')).toEqual([]);
  });

  it('splits at a definition that starts at the indentation of the one before it, with the closing brace kept', () => {
    const text = [
      '#!/usr/bin/perl',
      'use strict;',
      ...perlSub('first', 10),
      '# The second one.',
      ...perlSub('second', 10),
      '# tail',
      'main();',
      '',
    ].join('\n');
    const chunks = chunkBlocks('lib/x.pl', text);
    // the preamble and `first` merge (small neighbours), `second` starts its own chunk with its comment
    expect(spans(chunks)).toEqual([
      [1, 14, 'first'],
      [15, 29, 'second'],
    ]);
    expect(chunks[0]).toMatchObject({ path: 'lib/x.pl', chunkType: 'block' });
    checkInvariants(text, chunks);
  });

  it('a run of comments that opens a block stays whole above its definition', () => {
    const text = ['# one', '# two', 'sub only {', '  1;', '}'].join('\n');
    expect(spans(chunkBlocks('x.pl', text))).toEqual([[1, 5, 'only']]);
  });

  it('merges small neighbours up to the target, so a file is not a thousand 1-line chunks', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `SET @v${i} = ${i};\n`).join('\n');
    const chunks = chunkBlocks('big.sql', text);
    expect(chunks.length).toBeLessThanOrEqual(Math.ceil(2000 / TARGET_LINES) + 1);
    expect(chunks.length).toBeGreaterThan(10);
    for (const c of chunks) expect(c.endLine - c.startLine + 1).toBeLessThanOrEqual(TARGET_LINES);
    expect(chunks[0].symbolName).toBe('SET');
    checkInvariants(text, chunks);
  });

  it('small definitions share a chunk; a definition of MIN_LINES lines or more keeps its own', () => {
    const small = Array.from({ length: 6 }, (_, i) => `proc p${i} {a} {\n    return $a\n}\n`).join('\n');
    const chunks = chunkBlocks('x.tcl', small);
    expect(chunks.length).toBeLessThan(6);
    expect(chunks[0].symbolName).toBe('p0');
    checkInvariants(small, chunks);
  });

  it('a block goes on through `} else {` and ends at the brace that closes it', () => {
    const lines = ['if ($x) {', '    a();', '} else {', '    b();', '}', 'next_statement();'];
    const chunks = chunkBlocks('x.pl', lines.join('\n'));
    expect(spans(chunks)).toEqual([[1, 6, 'if']]); // one merged chunk: the split is inside, the merge joins them
    checkInvariants(lines.join('\n'), chunks);
  });

  it('a long block is cut into balanced pieces within the caps, preferring a shallow line', () => {
    const body = Array.from({ length: 248 }, (_, i) =>
      i % 6 === 0 ? `    step${i} = do_thing(` : `        arg${i},`,
    );
    const text = ['sub huge {', ...body, '}'].join('\n');
    const chunks = chunkBlocks('x.pl', text);
    expect(chunks.length).toBe(3);
    for (const c of chunks) {
      expect(c.symbolName).toBe('huge'); // pieces of a definition keep its name
      expect(c.endLine - c.startLine + 1).toBeGreaterThan(60);
    }
    for (const c of chunks.slice(1)) expect(text.split('\n')[c.startLine - 1]).toMatch(/^ {4}step/);
    checkInvariants(text, chunks);
  });

  it('a long block of plain lines is cut by characters too; pieces are named by their own first word', () => {
    const text = Array.from({ length: 90 }, (_, i) => `row${i} ${'x'.repeat(300)}`).join('\n');
    const chunks = chunkBlocks('data.txt', text);
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    expect(chunks[1].symbolName).toBe(`row${chunks[1].startLine - 1}`);
    checkInvariants(text, chunks);
  });

  it('a huge single line is a block of its own, its neighbours are not swallowed', () => {
    const text = `before\n${'q'.repeat(300_000)}\nafter`;
    const chunks = chunkBlocks('blob.txt', text);
    expect(spans(chunks)).toEqual([
      [1, 1, 'before'],
      [2, 2, 'q'.repeat(100)],
      [3, 3, 'after'],
    ]);
  });

  it('names: definition keywords (after modifiers and comments), SQL, Tcl namespaces, comment markers, punctuation', () => {
    const name = (text: string) => chunkBlocks('x', text)[0]?.symbolName;
    expect(name('-- the users\nCREATE TABLE IF NOT EXISTS "users" (\n  id int\n);')).toBe('users');
    expect(name('create or replace view [dbo].[active_users] as select 1;')).toBe('dbo.active_users');
    expect(name('CREATE UNIQUE INDEX idx_users_email ON users (email);')).toBe('idx_users_email');
    expect(name('proc ::app::render {w} {\n  pack $w\n}')).toBe('app::render');
    expect(name('# Totals for the report\n# (yearly)\nsub totals {\n  1;\n}')).toBe('totals');
    expect(name('Public Sub Main()\n  x = 1\nEnd Sub')).toBe('Main');
    expect(name('package Foo::Bar;\nuse strict;')).toBe('Foo::Bar');
    expect(name('(defun square (x)\n  (* x x))')).toBe('square');
    expect(name('build-all: deps\n\tmake -C src')).toBe('build-all');
    expect(name('#!/bin/sh\nset -e')).toBe('set');
    expect(name('/* --- */\n// ===')).toBe('');
    expect(name('### 42 ###\n--- Install steps ---')).toBe('Install');
    expect(name('Function names are case-insensitive in this manual.')).toBe('Function'); // capitalised prose is not a definition
    expect(name('unicode: ümlaut_wort = 1')).toBe('unicode');
  });

  it('CRLF, a BOM and a missing final newline change nothing but the text', () => {
    const lf = ['sub a {', '  1;', '}', '', 'sub b {', '  2;', '}'].join('\n');
    const expected = spans(chunkBlocks('x.pl', lf + '\n'));
    expect(spans(chunkBlocks('x.pl', lf))).toEqual(expected);
    expect(spans(chunkBlocks('x.pl', '\uFEFF' + lf.replace(/\n/g, '\r\n') + '\r\n'))).toEqual(expected);
    expect(expected[0][2]).toBe('a');
  });

  it('odd input never throws: binary-ish text, lone carriage returns, control characters', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const binary = Array.from({ length: 20_000 }, () => String.fromCharCode(Math.floor(rnd() * 256))).join(
      '',
    );
    for (const text of [binary, '\r\r\r', '\0\0\n\0', '}\n}\n}\n', '\t\t\tx\ny', ' \u00a0\n\u2028x']) {
      const chunks = chunkBlocks('odd.bin', text);
      checkInvariants(text, chunks);
    }
  });

  it('property: every non-blank line in exactly one block, blocks within the caps, sorted, never overlapping', () => {
    const line = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('', '   ', '\t', '\r') },
      {
        weight: 10,
        arbitrary: fc
          .tuple(
            fc.constantFrom('', '  ', '    ', '\t', '\t\t', '        '),
            fc.constantFrom(
              'sub f {',
              '}',
              'x = 1;',
              'end',
              '} else {',
              '# note',
              'CREATE TABLE t (',
              ');',
              'done',
              'word',
            ),
          )
          .map(([a, b]) => a + b),
      },
      { weight: 1, arbitrary: fc.integer({ min: 100, max: 9_000 }).map((n) => 'L'.repeat(n)) },
      { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 400 }), fc.boolean(), fc.boolean(), (ls, crlf, bom) => {
        const text = (bom ? '\uFEFF' : '') + ls.join(crlf ? '\r\n' : '\n');
        checkInvariants(text, chunkBlocks('p.txt', text));
      }),
      { numRuns: 300 },
    );
  });
});
