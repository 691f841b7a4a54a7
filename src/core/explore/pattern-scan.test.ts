import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeLines } from './pattern-scan';

const code = (text: string, style: Parameters<typeof codeLines>[1] = 'c') =>
  codeLines(text.split('\n'), style);

describe('codeLines', () => {
  it('c style: blanks // and /* */ comments across lines, keeps the line count', () => {
    expect(code('a(); // throw new X()\n/* throw\n   new Y() */ b();\nc(); /* x */ d();')).toEqual([
      'a(); ',
      '',
      '  b();',
      'c();   d();',
    ]);
    expect(code('/**\n * throw new Error()\n */\nx')).toEqual(['', '', ' ', 'x']);
  });

  it('c style: string text is blanked, import specifiers kept; a // or /* in a string is no comment', () => {
    expect(code(`const g = 'src/**/*.ts'; throw new E('a // b');`)).toEqual([
      `const g = ''; throw new E('');`,
    ]);
    expect(
      code(
        `import x from './x.js';\nconst y = require("node:fs");\nawait import('./lazy');\nexport * from "./all";`,
      ),
    ).toEqual([
      `import x from './x.js';`,
      `const y = require("node:fs");`,
      `await import('./lazy');`,
      `export * from "./all";`,
    ]);
    expect(code('s = "a \\" // b"; t();')).toEqual(['s = ""; t();']);
  });

  it('c style: a template literal may span lines; its text is blanked', () => {
    expect(code('const src = `\nthrow new Error("x")\nclass A extends Error {}\n`;\nz();')).toEqual([
      'const src = `',
      '',
      '',
      '`;',
      'z();',
    ]);
  });

  it('go and rust keep strings; rust lifetimes are not quotes', () => {
    expect(code('return fmt.Errorf("read %s: %w", p, err) // wrap', 'go')).toEqual([
      'return fmt.Errorf("read %s: %w", p, err) ',
    ]);
    expect(code("fn f<'a>(x: &'a str) -> Result<(), E> { g()?; Ok(()) } // ?", 'rust')).toEqual([
      "fn f<'a>(x: &'a str) -> Result<(), E> { g()?; Ok(()) } ",
    ]);
  });

  it('python: # comments, strings and docstrings blanked', () => {
    expect(
      code(
        '"""Module doc.\n\nraise ValueError\n"""\nx = "# not a comment"  # raise Y\nraise Z("msg")',
        'python',
      ),
    ).toEqual(['""', '', '', '', 'x = ""  ', 'raise Z("")']);
    expect(code("s = '''one line'''; t = 1", 'python')).toEqual(['s = ""; t = 1']);
  });

  it('hash style: comment lines blanked; long lines dropped in every style', () => {
    expect(code('# raise\necho hi', 'hash')).toEqual(['', 'echo hi']);
    expect(code('x'.repeat(2000))).toEqual(['']);
  });

  it('never throws and keeps the line count on random text', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 400 }),
        fc.constantFrom('c', 'go', 'rust', 'python', 'hash') as fc.Arbitrary<Parameters<typeof codeLines>[1]>,
        (text, style) => {
          const lines = text.split('\n');
          expect(codeLines(lines, style)).toHaveLength(lines.length);
        },
      ),
      { numRuns: 500 },
    );
  });
});
