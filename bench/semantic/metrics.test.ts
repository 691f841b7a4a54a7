import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  formatQualityTable,
  loadQuestions,
  partOf,
  quality,
  rankOfAnswer,
  stripDocComments,
  stripPythonComments,
  type Question,
} from './metrics';

const here = dirname(fileURLToPath(import.meta.url));
const readQuestions = (file: string): Question[] => loadQuestions(readFileSync(join(here, file), 'utf8'));

const lines = (text: string) => text.split('\n').length;

describe('loadQuestions', () => {
  it('accepts an array of {q, answer} and keeps only those fields', () => {
    expect(loadQuestions('[{"q": "split an array", "answer": "chunk.js", "note": "x"}]')).toEqual([
      { q: 'split an array', answers: ['chunk.js'] },
    ]);
  });

  it('accepts a list of one or two acceptable answers, and no more', () => {
    expect(loadQuestions('[{"q": "parse", "answer": ["a.c", "b.c"]}]')).toEqual([
      { q: 'parse', answers: ['a.c', 'b.c'] },
    ]);
    expect(() => loadQuestions('[{"q": "parse", "answer": []}]')).toThrow(/one or two paths/);
    expect(() => loadQuestions('[{"q": "parse", "answer": ["a", "b", "c"]}]')).toThrow(/one or two paths/);
    expect(() => loadQuestions('[{"q": "parse", "answer": ["a.c", 3]}]')).toThrow(/non-empty string/);
  });

  it('rejects invalid JSON and non-arrays', () => {
    expect(() => loadQuestions('[{')).toThrow(/not valid JSON/);
    expect(() => loadQuestions('{"q": "a", "answer": "b"}')).toThrow(/JSON array/);
  });

  it('names the bad entry', () => {
    expect(() => loadQuestions('[{"q": "ok", "answer": "a.js"}, {"q": "no answer"}]')).toThrow(
      /questions\[1\] \{"q":"no answer"\}: "answer"/,
    );
    expect(() => loadQuestions('[{"q": "", "answer": "a.js"}]')).toThrow(
      /questions\[0\].*"q" must be a non-empty string/,
    );
    expect(() => loadQuestions('[42]')).toThrow(/questions\[0\] 42: expected an object/);
    expect(() => loadQuestions('[null]')).toThrow(/questions\[0\] null/);
    expect(() => loadQuestions('[{"q": "x", "answer": "/abs/a.js"}]')).toThrow(/relative path/);
    expect(() => loadQuestions('[{"q": "x", "answer": "src\\\\a.js"}]')).toThrow(/forward slashes/);
  });
});

describe('rankOfAnswer', () => {
  it('ranks distinct paths, keeping the first occurrence of each', () => {
    const results = ['a.js', 'a.js', 'b.js', 'a.js', 'c.js', 'b.js', 'd.js'];
    expect(rankOfAnswer(results, 'a.js')).toBe(1);
    expect(rankOfAnswer(results, 'b.js')).toBe(2);
    expect(rankOfAnswer(results, 'c.js')).toBe(3);
    expect(rankOfAnswer(results, 'd.js')).toBe(4);
  });

  it('takes the first of several acceptable answers', () => {
    expect(rankOfAnswer(['x.c', 'b.h', 'a.c'], ['a.c', 'b.h'])).toBe(2);
  });

  it('returns null when the answer is absent', () => {
    expect(rankOfAnswer(['a.js', 'b.js'], 'z.js')).toBeNull();
    expect(rankOfAnswer([], 'z.js')).toBeNull();
  });
});

describe('quality', () => {
  it('computes recall@1, recall@5 and MRR@10', () => {
    const row = quality([1, 2, 5, 6, 11, null]);
    expect(row.n).toBe(6);
    expect(row.recallAt1).toBeCloseTo(1 / 6);
    expect(row.recallAt5).toBeCloseTo(3 / 6);
    expect(row.mrrAt10).toBeCloseTo((1 + 1 / 2 + 1 / 5 + 1 / 6) / 6);
  });

  it('counts rank 10 in MRR@10 and rank 11 as zero', () => {
    expect(quality([10]).mrrAt10).toBeCloseTo(0.1);
    expect(quality([11]).mrrAt10).toBe(0);
  });

  it('returns zeros for no questions and rejects impossible ranks', () => {
    expect(quality([])).toEqual({ recallAt1: 0, recallAt5: 0, mrrAt10: 0, n: 0 });
    expect(() => quality([0])).toThrow(RangeError);
    expect(() => quality([1.5])).toThrow(RangeError);
  });
});

describe('formatQualityTable', () => {
  it('aligns columns and prints 3 decimals', () => {
    const table = formatQualityTable([
      { name: 'bm25', row: { recallAt1: 0.5, recallAt5: 0.75, mrrAt10: 0.6123, n: 4 } },
      { name: 'semantic-hybrid', row: { recallAt1: 1, recallAt5: 1, mrrAt10: 1, n: 4 } },
    ]);
    const rows = table.split('\n');
    expect(rows).toEqual([
      'system           recall@1  recall@5  MRR@10',
      '---------------  --------  --------  ------',
      'bm25                0.500     0.750   0.612',
      'semantic-hybrid     1.000     1.000   1.000',
    ]);
    expect(new Set(rows.map((r) => r.length)).size).toBe(1);
  });

  it('prints just the header for no rows', () => {
    expect(formatQualityTable([]).split('\n')).toHaveLength(2);
  });
});

describe('stripDocComments', () => {
  const check = (source: string, expected: string) => {
    const out = stripDocComments(source);
    expect(out).toBe(expected);
    expect(out.length).toBe(source.length);
    expect(lines(out)).toBe(lines(source));
  };

  it('blanks JSDoc, block and line comments but keeps line breaks and columns', () => {
    const source = [
      '/**',
      ' * Adds.',
      ' * @param a x',
      ' */',
      'function add(a, b) { /* inline */ return a + b; } // trailing',
      'add(1, 2);',
    ].join('\n');
    const out = stripDocComments(source);
    expect(lines(out)).toBe(lines(source));
    expect(out.length).toBe(source.length);
    expect(out.split('\n')).toEqual([
      '   ',
      '        ',
      '             ',
      '   ',
      'function add(a, b) {              return a + b; }            ',
      'add(1, 2);',
    ]);
    // every code token stays in its column
    expect(out.indexOf('return')).toBe(source.indexOf('return'));
  });

  it('keeps CRLF line breaks inside comments', () => {
    check('a /* x\r\ny */ b\r\n// c\r\nd', 'a     \r\n     b\r\n    \r\nd');
  });

  it('does not touch a URL inside a string', () => {
    check(`const u = "http://x"; // real`, `const u = "http://x";        `);
    check(`const u = 'http://x/*not*/'; f(u)`, `const u = 'http://x/*not*/'; f(u)`);
    check(`const s = "a \\" // still string"; // gone`, `const s = "a \\" // still string";        `);
  });

  it('does not touch a regex literal containing /* or //', () => {
    check('const re = /[/*]+/g; // c', 'const re = /[/*]+/g;     ');
    check('const re = /a\\/*b/; x', 'const re = /a\\/*b/; x');
    check('if (ok) f(/\\/\\//.test(s)) /* c */', 'if (ok) f(/\\/\\//.test(s))        ');
    check('function f(s) { return /^\\/\\*/.test(s); }', 'function f(s) { return /^\\/\\*/.test(s); }');
    check('x = a ? /b/ : /c/; // d', 'x = a ? /b/ : /c/;     ');
  });

  it('reads a slash after an identifier, ) or ] as division', () => {
    check('const r = a / b / c; // half', 'const r = a / b / c;        ');
    check('const r = (a + 1) / 2 /* two */ / x[0] / 3;', 'const r = (a + 1) / 2           / x[0] / 3;');
    check('const r = total/count // avg', 'const r = total/count       ');
    check('const r = obj.return / 2; // p', 'const r = obj.return / 2;     ');
  });

  it('falls back to division when a would-be regex has no closing slash on its line', () => {
    check('x = }\n/ 2 // c', 'x = }\n/ 2     ');
  });

  it('does not touch template literals, with or without substitutions', () => {
    check('const t = `http://x /* y */`; // z', 'const t = `http://x /* y */`;     ');
    check('const t = `a ${b /* c */ + "//"} d // e`; // f', 'const t = `a ${b         + "//"} d // e`;     ');
    check('const t = `${ {a: 1}.a } // x`; /* y */', 'const t = `${ {a: 1}.a } // x`;        ');
    check('const t = `line1\n// line2\n`; // c', 'const t = `line1\n// line2\n`;     ');
  });

  it('handles an unterminated block comment and leaves comment-free code unchanged', () => {
    check('a; /* open\nforever', 'a;        \n       ');
    const code = 'export const x = (a, b) => a / b;\n';
    expect(stripDocComments(code)).toBe(code);
  });
});

describe('partOf', () => {
  it('is fixed by the text and holds out about a third', () => {
    const qs = Array.from({ length: 600 }, (_, i) => `question number ${i}`);
    const held = qs.filter((q) => partOf(q) === 'held').length;
    expect(held).toBeGreaterThan(150);
    expect(held).toBeLessThan(250);
    for (const q of qs.slice(0, 20)) expect(partOf(q)).toBe(partOf(q));
  });
});

describe('stripPythonComments', () => {
  const check = (source: string, expected: string) => {
    const out = stripPythonComments(source);
    expect(out).toBe(expected);
    expect(out.length).toBe(source.length);
  };

  it('blanks # comments and standalone docstrings, keeping lines and columns', () => {
    check(
      'def f(x):  # add\n    """Adds.\n    More."""\n    return x\n',
      'def f(x):       \n            \n            \n    return x\n',
    );
  });

  it('keeps strings that are values, and a # inside a string', () => {
    check('s = """a\nb"""\nt = "# not" # c', 's = """a\nb"""\nt = "# not"    ');
    check("u = r'\\d#' + f'{x}'", "u = r'\\d#' + f'{x}'");
  });
});

describe('question sets', () => {
  const sets = {
    lodash: readQuestions('questions-lodash.json'),
    three: readQuestions('questions-three.json'),
    babel: readQuestions('questions-babel.json'),
    libxml2: readQuestions('questions-libxml2.json'),
    gyp: readQuestions('questions-gyp.json'),
  };
  const { lodash, three } = sets;

  const baseName = (path: string) => path.replace(/^.*\//, '').replace(/\.js$/, '');
  const mentionsName = ({ q, answers }: Question) =>
    new RegExp(`\\b${baseName(answers[0]).replace(/[$]/g, '\\$&')}\\b`, 'i').test(q);

  it('hold at least 200 questions over five code bases, each with a held-out part, and no duplicates', () => {
    const all = Object.values(sets).flat();
    expect(all.length).toBeGreaterThanOrEqual(200);
    for (const set of Object.values(sets)) {
      expect(set.length).toBeGreaterThanOrEqual(48);
      expect(set.filter(({ q }) => partOf(q) === 'held').length).toBeGreaterThanOrEqual(12);
      const normalized = set.map(({ q }) => q.trim().toLowerCase());
      expect(new Set(normalized).size).toBe(normalized.length);
    }
  });

  it('lodash: at most 8 questions name their answer function', () => {
    expect(lodash.filter(mentionsName).length).toBeLessThanOrEqual(8);
  });

  it('lodash: answers are package-root public files, not internal helpers', () => {
    for (const { answers } of lodash)
      for (const a of answers) expect(a).toMatch(/^[a-zA-Z][a-zA-Z0-9]*\.js$/);
  });

  it('three: answers are in the measured folders and at most 8 questions name their answer class', () => {
    for (const { answers } of three)
      for (const a of answers) expect(a).toMatch(/^src\/(math|geometries|curves|extras\/curves)\/.+\.js$/);
    expect(three.filter(mentionsName).length).toBeLessThanOrEqual(8);
  });

  const packages: Record<keyof typeof sets, string> = {
    lodash: 'lodash',
    three: 'three',
    babel: '@babel/core-7',
    libxml2: 'libxmljs2',
    gyp: 'node-gyp',
  };
  for (const [name, pkg] of Object.entries(packages) as [keyof typeof sets, string][]) {
    const root = join(here, '../../node_modules', pkg);
    it.skipIf(!existsSync(root))(`${name}: every answer file exists in the installed package`, () => {
      const missing = sets[name].flatMap(({ answers }) => answers).filter((a) => !existsSync(join(root, a)));
      expect(missing).toEqual([]);
    });
  }
});
