/** detectPatterns' "Naming" patterns (patterns-naming.ts): file names per language, function and constant names; fileNameStyle. */
import { describe, expect, it } from 'vitest';
import { detectPatterns } from './patterns';
import { fileNameStyle } from './patterns-naming';

type F = { path: string; text: string };
const lines = (...l: string[]) => l.join('\n');
const run = (files: F[], maxExamples?: number) => detectPatterns(files, { maxExamples });
const described = (files: F[]) => Object.fromEntries(run(files).map((p) => [p.name, p.description]));

describe('detectPatterns: naming', () => {
  const service = lines(
    'export function getUser() {}',
    'function load_all() {}',
    'const makeThing = () => 1;',
    'export const fetchIt = async (id: string) => id;',
    'function Component() {}',
    'function run() {}',
    'const MAX_SIZE = 10;',
    "export const DEFAULT_NAME = 'x';",
    'const timeoutMs = 500;',
    'const pattern = /ab+c/;',
    'const list = [1, 2];',
    'function f() {',
    '  const INNER = 1;',
    '}',
  );
  const loader = lines(
    'MAX_ROWS = 100',
    'default_name = "x"',
    '__version__ = "1.0"',
    'def load_rows():',
    '    LOCAL = 1',
  );

  it('file names per language, function names, constants', () => {
    const d = described([
      { path: 'src/user-service.ts', text: service },
      { path: 'src/order-item.ts', text: '' },
      { path: 'src/userModel.ts', text: '' },
      { path: 'src/App.tsx', text: '' },
      { path: 'src/index.ts', text: '' },
      { path: 'src/a.test.ts', text: '' },
      { path: 'pkg/data_loader.py', text: loader },
      { path: 'pkg/test_data_loader.py', text: '' },
      { path: 'pkg/__init__.py', text: '' },
    ]);
    expect(d['Naming: JS/TS file names']).toBe(
      'kebab-case file names: 2 of 4 multi-word JS/TS file names (camelCase: 1, PascalCase: 1); 2 one-word names',
    );
    expect(d['Naming: Python file names']).toBe('snake_case file names: 2 of 2 multi-word Python file names');
    expect(d['Naming: JS/TS functions']).toBe(
      'camelCase function names: 3 of 5 multi-word JS/TS function names (snake_case: 1, PascalCase: 1)',
    );
    expect(d['Naming: JS/TS constants']).toBe(
      'UPPER_SNAKE_CASE for top-level literal constants: 2 of 4 top-level constants bound to a literal (camelCase: 2)',
    );
    expect(d['Naming: Python constants']).toBe(
      'UPPER_SNAKE_CASE for module-level literal constants: 1 of 2 module-level names bound to a literal (lower case: 1)',
    );
    expect(d['Naming: Python functions']).toBe(
      'snake_case function names: 1 of 1 multi-word Python function names',
    );
  });

  it('fileNameStyle reads the stem before the first dot and drops test affixes', () => {
    expect(fileNameStyle('a/user-service.test.ts', 'ts')).toBe('kebab');
    expect(fileNameStyle('a/test_data_loader.py', 'python')).toBe('snake');
    expect(fileNameStyle('a/store_test.go', 'go')).toBe('single');
    expect(fileNameStyle('a/_app.tsx', 'ts')).toBe('single');
    expect(fileNameStyle('a/.eslintrc.js', 'js')).toBeNull();
    expect(fileNameStyle('a/__init__.py', 'python')).toBeNull();
  });
});
