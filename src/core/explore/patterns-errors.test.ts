/** detectPatterns' "Error handling" patterns (patterns-errors.ts): JS/TS throw sites, Python raise and except, Go and Rust errors. */
import { describe, expect, it } from 'vitest';
import { detectPatterns } from './patterns';
import type { Pattern } from './types';

type F = { path: string; text: string };
const lines = (...l: string[]) => l.join('\n');
const run = (files: F[], maxExamples?: number) => detectPatterns(files, { maxExamples });
const byName = (patterns: Pattern[]) => new Map(patterns.map((p) => [p.name, p]));
const described = (files: F[]) => Object.fromEntries(run(files).map((p) => [p.name, p.description]));

describe('detectPatterns: error handling', () => {
  const errorsTs = lines(
    'export class AppError extends Error {}',
    'export class NotFound extends AppError {}',
    'class Deep extends NotFound {}',
    'class Plain {}',
    '',
    'export function find(id: string): string {',
    "  if (!id) throw new NotFound('no id');",
    "  if (id === 'x') throw new Deep();",
    "  // throw new Error('commented out');",
    "  /* throw new TypeError('in a block comment'); */",
    '  try {',
    '    return load(id);',
    '  } catch (e) {',
    '    throw e;',
    '  }',
    '}',
    'export function check(v: unknown): void {',
    "  if (typeof v !== 'string') throw new TypeError('not a string');",
    '  throw new Plain();',
    '}',
    `const msg = 'throw new Error("in a string")';`,
  );
  const apiTs = lines(
    "import { AppError } from './errors';",
    'export async function get(url: string) {',
    '  return fetch(url).then((r) => r.json()).catch(() => null);',
    '}',
    'export function parse(s: string): Result<number, string> {',
    "  return s ? Ok(1) : Err('empty');",
    '}',
  );

  it('JS/TS throw sites: the repo’s Error subclasses (transitively) apart from built-ins, rethrows and non-Error classes', () => {
    const patterns = byName(
      run([
        { path: 'src/errors.ts', text: errorsTs },
        { path: 'src/api.ts', text: apiTs },
      ]),
    );
    expect(patterns.get('Error handling: throw sites')).toEqual({
      name: 'Error handling: throw sites',
      description:
        'throws custom Error subclasses (NotFound, Deep): 2 of 5 throw sites (built-in errors: 1, non-Error classes: 1, rethrows: 1)',
      count: 2,
      total: 5,
      examples: [
        { path: 'src/errors.ts', line: 7, text: "if (!id) throw new NotFound('no id');" },
        { path: 'src/errors.ts', line: 8, text: "if (id === 'x') throw new Deep();" },
      ],
    });
    expect(patterns.get('Error handling: try/catch')).toMatchObject({
      description: 'files with try/catch (1 block): 1 of 2 JS/TS files',
      examples: [{ path: 'src/errors.ts', line: 11, text: 'try {' }],
    });
    expect(patterns.get('Error handling: promise .catch()')?.description).toBe(
      'files with promise .catch() (1 call): 1 of 2 JS/TS files',
    );
    expect(patterns.get('Error handling: Result type')).toMatchObject({
      description: 'files using a Result type (Result<…>, Ok(), Err(): 2 sites): 1 of 2 JS/TS files',
      count: 1,
      total: 2,
    });
  });

  it('throwing strings and built-ins: the most common kind is the statement', () => {
    const js = lines(
      'function a() { throw "missing"; }',
      "function b() { throw new Error('x'); }",
      "function c() { throw Error('y'); }",
      'function d() { throw makeError(); }',
    );
    expect(described([{ path: 'a.js', text: js }])['Error handling: throw sites']).toBe(
      'throws built-in errors (Error): 2 of 4 throw sites (error factories: 1, non-Error values: 1)',
    );
  });

  it('Python raise sites and bare except', () => {
    const py = lines(
      'class AppError(Exception):',
      '    pass',
      'class NotFound(AppError):',
      '    pass',
      'class Deeper(NotFound):',
      '    pass',
      'def f(x):',
      '    if not x:',
      '        raise NotFound("x")',
      '    if x == 1:',
      '        raise Deeper()',
      '    if x == 2:',
      '        raise ValueError("bad")',
      '    try:',
      '        g()',
      '    except KeyError:',
      '        raise',
      '    except:',
      '        pass',
      '    try:',
      '        h()',
      '    except Exception as e:',
      '        raise e',
      '    # raise RuntimeError("commented")',
      '    """raise TypeError("in a docstring")"""',
    );
    const d = described([{ path: 'app/errors.py', text: py }]);
    expect(d['Error handling: Python raise']).toBe(
      'raises custom exceptions (NotFound, Deeper): 2 of 5 raise sites (built-in exceptions: 1, bare raise: 1, exception objects: 1)',
    );
    expect(d['Error handling: bare except']).toBe('bare except: clauses: 1 of 3 except clauses');
  });

  it('Go error checks and wrapping; Rust ? against unwrap/expect', () => {
    const go = lines(
      'package srv',
      '',
      'import (',
      '\t"errors"',
      '\t"fmt"',
      ')',
      '',
      'var ErrX = errors.New("x")',
      '',
      'func f() error {',
      '\tif err := g(); err != nil {',
      '\t\treturn fmt.Errorf("g: %w", err)',
      '\t}',
      '\tv, err := h()',
      '\tif err != nil {',
      '\t\treturn fmt.Errorf("h failed: %v", err)',
      '\t}',
      '\t// if err != nil { in a comment }',
      '\t_ = v',
      '\treturn nil',
      '}',
    );
    const rs = lines(
      'fn read() -> Result<String, io::Error> {',
      '    let s = fs::read_to_string("x")?;',
      '    let n: u32 = s.trim().parse().unwrap();',
      '    let m = other()?.value;',
      '    let k = cfg.get("k").expect("k is set");',
      '    // x.unwrap()',
      '    Ok(s)',
      '}',
      'fn g<T: ?Sized>() {}',
    );
    const patterns = byName(
      run([
        { path: 'srv/a.go', text: go },
        { path: 'c/src/lib.rs', text: rs },
        { path: 'c/tests/it.rs', text: 'fn t() { x().unwrap(); }' },
      ]),
    );
    expect(patterns.get('Error handling: Go error checks')).toMatchObject({
      description: 'files with if err != nil checks (2 checks): 1 of 1 Go files',
      examples: [
        { path: 'srv/a.go', line: 11, text: 'if err := g(); err != nil {' },
        { path: 'srv/a.go', line: 15, text: 'if err != nil {' },
      ],
    });
    expect(patterns.get('Error handling: Go error wrapping')?.description).toBe(
      'wraps errors with fmt.Errorf("…%w") or errors.Wrap: 1 of 3 error constructions (errors.New: 1, fmt.Errorf without %w: 1)',
    );
    expect(patterns.get('Error handling: Rust ? operator')?.description).toBe(
      'propagates errors with the ? operator: 2 of 4 error-handling sites outside tests (unwrap(): 1, expect(): 1)',
    );
  });
});
