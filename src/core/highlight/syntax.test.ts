/**
 * Colouring from the grammars' highlight queries: every query compiles against its grammar,
 * a line is coloured by what the parse says it is (a keyword inside a string is a string, a
 * name is a function where it is called), runs never overlap, and what cannot be coloured
 * exactly (no grammar, no query, too large) says so with null.
 */
import { describe, expect, it } from 'vitest';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import type { GrammarLanguageId } from '../chunk/types';
import { HIGHLIGHT_QUERY_FILES } from './queries';
import { kindOfCapture, SyntaxColourer, SYNTAX_MAX_BYTES, type LineSpans } from './syntax';

const colourer = new SyntaxColourer(nodeGrammarLoader);

/** The text of each coloured run of a line, with its kind. */
function runs(line: string, spans: LineSpans): string[] {
  return spans.map(([s, e, k]) => `${k}:${line.slice(s, e)}`);
}

async function colour(path: string, text: string) {
  const parsed = await colourer.parse(path, text);
  expect(parsed, path).not.toBeNull();
  const lines = text.split('\n');
  const out = parsed!.lines(1, lines.length).map((spans, i) => runs(lines[i], spans));
  parsed!.dispose();
  return out;
}

const SAMPLES: Record<GrammarLanguageId, [string, string] | null> = {
  typescript: ['a.ts', "interface User { id: string }\nexport function find(u: User) { return 'if'; }\n"],
  tsx: ['a.tsx', 'export const App = () => <div className="x">{f(1)}</div>;\n'],
  javascript: ['a.js', '// note\nconst n = 42;\nfunction go() { return "x"; }\n'],
  python: ['a.py', 'def load(path):\n    """Doc."""\n    return open(path)  # why\n'],
  go: ['a.go', 'package main\n\nfunc main() { fmt.Println("hi", 3) }\n'],
  rust: ['a.rs', 'fn main() -> u32 { let s = "x"; 7 }\n'],
  c: ['a.c', '#include <stdio.h>\nint main(void) { return printf("x"); }\n'],
  cpp: ['a.cpp', 'class A { public: int f() const { return 1; } };\n'],
  java: ['A.java', 'class A { int f() { return "s".length(); } }\n'],
  csharp: ['A.cs', 'class A { int F() { return 1; } }\n'],
  ruby: ['a.rb', 'def go(x)\n  puts "hi" # c\nend\n'],
  php: ['a.php', '<?php function go($x) { return "s"; }\n'],
  bash: ['a.sh', 'if [ -f x ]; then echo "y"; fi # c\n'],
  css: ['a.css', '@media screen { .a { color: red; } }\n'],
  html: ['a.html', '<div class="x"><!-- c --></div>\n'],
  kotlin: null,
  swift: null,
};

describe('SyntaxColourer', () => {
  it('compiles every listed query against its grammar and colours a sample of each language', async () => {
    for (const [id, sample] of Object.entries(SAMPLES) as Array<
      [GrammarLanguageId, [string, string] | null]
    >) {
      expect(Boolean(HIGHLIGHT_QUERY_FILES[id]), id).toBe(sample !== null);
      if (!sample) continue;
      const lines = await colour(...sample);
      expect(lines.flat().length, id).toBeGreaterThan(0);
      for (const [i, l] of sample[1].split('\n').entries()) {
        const parsed = await colourer.parse(sample[0], sample[1]);
        const spans = parsed!.lines(i + 1, i + 1)[0] ?? [];
        parsed!.dispose();
        // runs are in order, inside the line and never overlap
        for (let k = 0; k < spans.length; k++) {
          expect(spans[k][0]).toBeLessThan(spans[k][1]);
          expect(spans[k][1]).toBeLessThanOrEqual(l.length);
          if (k) expect(spans[k][0]).toBeGreaterThanOrEqual(spans[k - 1][1]);
        }
      }
    }
  });

  it('colours by the parse: keywords, strings, comments, numbers, functions and types where they are', async () => {
    const ts = await colour(
      'a.ts',
      "interface User { id: string }\nexport function find(u: User) { return 'if'; }\n",
    );
    expect(ts[0]).toContain('kw:interface');
    expect(ts[0]).toContain('type:User');
    expect(ts[1]).toEqual(
      expect.arrayContaining(['kw:export', 'kw:function', 'fn:find', 'type:User', 'kw:return']),
    );
    expect(ts[1]).toContain("str:'if'"); // a keyword inside a string is a string
    const tpl = await colour('t.ts', 'const s = `v${name}w`;\n');
    expect(tpl[0]).toEqual(expect.arrayContaining(['str:`v', 'str:w`'])); // the substitution is code, not string
    expect(tpl[0].some((r) => r.includes('name'))).toBe(false);
    const js = await colour('a.js', '// note\nconst n = 42;\nfunction go() { return "x"; }\n');
    expect(js[0]).toEqual(['com:// note']);
    expect(js[1]).toEqual(expect.arrayContaining(['kw:const', 'num:42']));
    const py = await colour('a.py', 'def load(path):\n    """Doc."""\n    return open(path)  # why\n');
    expect(py[0]).toEqual(expect.arrayContaining(['kw:def', 'fn:load']));
    expect(py[1]).toEqual(['str:"""Doc."""']);
    expect(py[2]).toEqual(expect.arrayContaining(['kw:return', 'fn:open', 'com:# why']));
  });

  it('colours a window of a long file by its place in the whole parse (a string opened lines above)', async () => {
    const text = 'const a = `\nreturn if\n`;\n' + 'let x = 1;\n'.repeat(5000);
    const parsed = await colourer.parse('big.js', text);
    expect(parsed!.lines(2, 2)).toEqual([[[0, 9, 'str']]]); // inside a template string, not keywords
    expect(parsed!.lines(5000, 5001).map((s) => s.map((r) => r[2]))).toEqual([
      ['kw', 'punct', 'num', 'punct'],
      ['kw', 'punct', 'num', 'punct'],
    ]);
    expect(parsed!.lines(9999, 10_000)).toEqual([]); // past the end
    parsed!.dispose();
    expect(parsed!.lines(1, 1)).toEqual([]); // freed
  });

  it('answers null where it cannot colour exactly: no grammar, no query, too large', async () => {
    expect(await colourer.parse('notes.txt', 'hello')).toBeNull();
    expect(await colourer.parse('A.kt', 'fun main() {}')).toBeNull(); // Kotlin's package ships no query
    expect(await colourer.parse('a.js', 'x'.repeat(SYNTAX_MAX_BYTES + 1))).toBeNull();
    expect(
      await new SyntaxColourer({ ...nodeGrammarLoader, highlightsQuery: undefined }).parse('a.js', 'x'),
    ).toBeNull();
  });

  it('maps capture names to the viewer kinds by their first part', () => {
    expect(kindOfCapture('function.method.builtin')).toBe('fn');
    expect(kindOfCapture('string.special.regex')).toBe('str');
    expect(kindOfCapture('constant.builtin')).toBe('kw');
    expect(kindOfCapture('punctuation.bracket')).toBe('punct');
    expect(kindOfCapture('variable')).toBe('plain');
    expect(kindOfCapture('embedded')).toBe('plain');
  });
});
