/** detectPatterns: module structure, type conventions, import style, testing, robustness. Error handling: patterns-errors.test.ts; naming: patterns-naming.test.ts. */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectPatterns } from './patterns';
import type { Pattern } from './types';

type F = { path: string; text: string };
const lines = (...l: string[]) => l.join('\n');
const run = (files: F[], maxExamples?: number) => detectPatterns(files, { maxExamples });
const byName = (patterns: Pattern[]) => new Map(patterns.map((p) => [p.name, p]));
const described = (files: F[]) => Object.fromEntries(run(files).map((p) => [p.name, p.description]));

describe('detectPatterns: module structure', () => {
  const files: F[] = [
    { path: 'a.ts', text: lines("import { b } from './b';", 'export const a = 1;', 'export default a;') },
    { path: 'b.ts', text: lines('export function b() {}', 'export interface B {}') },
    { path: 'c.js', text: lines("const x = require('./x');", 'module.exports = x;') },
    {
      path: 'index.ts',
      text: lines(
        "'use strict';",
        "export * from './a';",
        "export { b } from './b';",
        'export type {',
        '  B,',
        "} from './b';",
      ),
    },
    { path: 'src/index.ts', text: lines("import { a } from '../a';", 'export const z = a + 1;') },
    { path: 'both.js', text: lines("import x from 'x';", "const y = require('y');", '// export default 1;') },
    { path: 'pkg/__init__.py', text: '' },
    { path: 'pkg/mod.py', text: 'x = 1\n' },
    { path: 'pkg/sub/x.py', text: '' },
    { path: 'setup.py', text: '' },
    { path: 'cmd/tool/main.go', text: 'package main\n' },
    { path: 'store/store.go', text: '// Package store.\npackage store\n' },
    { path: 'store/store_test.go', text: 'package store_test\n' },
    { path: 'util/helpers.go', text: 'package helpers\n' },
  ];

  it('counts ES modules against CommonJS, named against default exports, barrels, Python and Go packages', () => {
    const patterns = byName(run(files));
    expect(patterns.get('Module structure: module system')).toMatchObject({
      description:
        'ES modules (import/export): 4 of 6 JS/TS files with imports or exports (CommonJS: 1, both: 1)',
      count: 4,
      total: 6,
    });
    expect(patterns.get('Module structure: exports')?.description).toBe(
      'named exports only: 3 of 4 JS/TS modules with exports (with a default export: 1)',
    );
    expect(patterns.get('Module structure: barrel files')).toEqual({
      name: 'Module structure: barrel files',
      description: 'barrel index files (re-exports only): 1 of 2 index files',
      count: 1,
      total: 2,
      examples: [{ path: 'index.ts' }],
    });
    expect(patterns.get('Module structure: Python packages')).toMatchObject({
      description: 'packages with __init__.py: 1 of 2 folders with Python modules',
      examples: [{ path: 'pkg/__init__.py' }],
    });
    expect(patterns.get('Module structure: Go packages')).toMatchObject({
      description: 'packages named after their folder: 1 of 3 Go folders (main: 1, named otherwise: 1)',
      examples: [{ path: 'store/store.go', line: 2, text: 'package store' }],
    });
  });
});

describe('detectPatterns: type conventions', () => {
  it('interfaces against object type aliases, any, enums against string-literal unions, Python hints', () => {
    const ts = lines(
      'export interface User { id: string }',
      'interface Admin extends User { level: number }',
      'export type Point = { x: number; y: number };',
      'type Id = string | number;',
      "export type Color = 'red' | 'green';",
      'type Size =',
      "  | 'small'",
      "  | 'large';",
      'export enum Mode { A, B }',
      'const enum Flag { X }',
      "type Single = 'only';",
      'function f(a: any, b: Array<any>): any { return a as any; }',
      '// const c: any = 1;',
    );
    const py = lines(
      'def typed(a: int, b: str = "x") -> bool:',
      '    return True',
      'def untyped(a, b):',
      '    pass',
      'def multi(',
      '    a: int,',
      '    b,',
      '):',
      '    pass',
      'async def ret() -> None:',
      '    pass',
      'def lam(key=lambda x: x):',
      '    pass',
    );
    const patterns = byName(
      run([
        { path: 't.ts', text: ts },
        { path: 'u.ts', text: 'export const u = 1;' },
        { path: 'v.js', text: 'const v = (a) => a;' },
        { path: 'm.py', text: py },
      ]),
    );
    expect(patterns.get('Type conventions: interface vs type')?.description).toBe(
      'object types declared as interface: 2 of 3 object type declarations (type aliases: 1)',
    );
    expect(patterns.get('Type conventions: enums vs unions')?.description).toBe(
      'string-literal union types: 2 of 4 enumerated types (enums: 2)',
    );
    expect(patterns.get('Type conventions: any')).toMatchObject({
      description: 'files with an explicit any (4 sites): 1 of 2 TypeScript files',
      examples: [
        { path: 't.ts', line: 12, text: 'function f(a: any, b: Array<any>): any { return a as any; }' },
      ],
    });
    expect(patterns.get('Type conventions: Python type hints')?.description).toBe(
      'functions with type hints: 3 of 5 Python functions (without hints: 2)',
    );
  });

  it('no any at all is still a counted statement', () => {
    expect(described([{ path: 'a.ts', text: 'export const a: number = 1;' }])['Type conventions: any']).toBe(
      'files with an explicit any: 0 of 1 TypeScript files',
    );
  });
});

describe('detectPatterns: import style', () => {
  it('specifier kinds, type-only imports, extensions, node: prefix', () => {
    const ts = lines(
      "import fs from 'node:fs';",
      "import path from 'path';",
      "import type { A } from './a.js';",
      "import { type B, c } from '../b';",
      'import {',
      '  type D,',
      '  e,',
      "} from './d';",
      "import React from 'react';",
      "import { x } from '@/lib/x';",
      "import './side-effect.css';",
      "const lazy = () => import('./lazy.js');",
      "// import z from 'commented';",
    );
    const patterns = byName(run([{ path: 's.ts', text: ts }]));
    expect(patterns.get('Import style: specifiers')).toMatchObject({
      description:
        'relative imports: 5 of 9 JS/TS import specifiers (packages: 1, aliases: 1, Node builtins: 2)',
      examples: [
        { path: 's.ts', line: 3, text: "import type { A } from './a.js';" },
        { path: 's.ts', line: 4, text: "import { type B, c } from '../b';" },
        { path: 's.ts', line: 8, text: "} from './d';" },
      ],
    });
    expect(patterns.get('Import style: type-only imports')?.description).toBe(
      'type-only imports (import type): 1 of 8 TypeScript import statements; inline type specifiers in 2 more',
    );
    expect(patterns.get('Import style: extensions')?.description).toBe(
      'relative imports with an explicit extension (.js): 2 of 4 relative imports of code (without: 2)',
    );
    expect(patterns.get('Import style: node: prefix')?.description).toBe(
      'Node builtins imported with the node: prefix: 1 of 2 Node builtin imports (bare name: 1)',
    );
  });

  it('Python relative against absolute imports of the project’s own modules; Go import grouping', () => {
    const py = lines(
      'from . import b',
      'from .c import d',
      'from pkg.e import f',
      'import pkg.g',
      'import os',
      'from typing import List',
    );
    const grouped = lines('package a', '', 'import (', '\t"fmt"', '\t"os"', '', '\t"github.com/x/y"', ')');
    const mixed = lines('package a', '', 'import (', '\t"fmt"', '\t"github.com/x/y"', ')');
    const stdOnly = lines('package a', '', 'import (', '\t"fmt"', ')');
    const d = described([
      { path: 'pkg/a.py', text: py },
      { path: 'a/a.go', text: grouped },
      { path: 'a/b.go', text: mixed },
      { path: 'a/c.go', text: stdOnly },
    ]);
    expect(d['Import style: Python imports']).toBe(
      "relative imports of the project's modules: 2 of 4 imports of the project's own modules (absolute: 2)",
    );
    expect(d['Import style: Go import grouping']).toBe(
      'standard library imports grouped apart: 1 of 2 Go files importing both (mixed: 1)',
    );
  });
});

describe('detectPatterns: testing', () => {
  const files: F[] = [
    {
      path: 'src/a.test.ts',
      text: lines(
        "import { describe, it, expect } from 'vitest';",
        "describe('a', () => {",
        "  it('works', () => {});",
        "  it.each([1, 2])('n %i', () => {});",
        "  test.skip('later', () => {});",
        "  // it('commented', () => {});",
        '});',
      ),
    },
    {
      path: 'src/b.spec.ts',
      text: lines(
        "import { test, expect } from '@playwright/test';",
        "test('page', async () => {});",
        "test.describe('group', () => {",
        "  test('inner', async () => {});",
        '});',
      ),
    },
    {
      path: 'e2e/c.spec.ts',
      text: lines("import { test } from './fixtures';", "test('x', async () => {});"),
    },
    {
      path: 'e2e/fixtures.ts',
      text: lines("import { test as base } from '@playwright/test';", 'export const test = base.extend({});'),
    },
    {
      path: 'tests/test_x.py',
      text: lines(
        'import pytest',
        '',
        'def test_one():',
        '    assert True',
        '',
        'def test_two():',
        '    pass',
      ),
    },
    {
      path: 'tests/test_y.py',
      text: lines('import unittest', 'class T(unittest.TestCase):', '    def test_a(self):', '        pass'),
    },
    {
      path: 'pkg/x_test.go',
      text: lines(
        'package pkg',
        '',
        'import "testing"',
        '',
        'func TestX(t *testing.T) {}',
        'func TestY(t *testing.T) {}',
        'func BenchmarkZ(b *testing.B) {}',
      ),
    },
    {
      path: 'src/lib.rs',
      text: lines(
        'pub fn f() {}',
        '#[cfg(test)]',
        'mod tests {',
        '    #[test]',
        '    fn t() {}',
        '    #[tokio::test]',
        '    async fn u() {}',
        '}',
      ),
    },
    {
      path: 'src/test/java/com/x/AppTest.java',
      text: lines(
        'import org.junit.jupiter.api.Test;',
        'class AppTest {',
        '  @Test void a() {}',
        '  @Test void b() {}',
        '}',
      ),
    },
  ];

  it('one pattern per framework with its test files and cases, then placement', () => {
    const patterns = run(files);
    const testing = patterns.filter((p) => p.name.startsWith('Testing'));
    expect(testing.map((p) => [p.name, p.description])).toEqual([
      ['Testing: Playwright', 'Playwright: 3 of 9 test files, 3 test cases'],
      ['Testing: Go testing', 'Go testing: 1 of 9 test files, 2 test cases'],
      ['Testing: JUnit', 'JUnit: 1 of 9 test files, 2 test cases'],
      ['Testing: Rust #[test]', 'Rust #[test]: 1 of 9 test files, 2 test cases'],
      ['Testing: Vitest', 'Vitest: 1 of 9 test files, 3 test cases'],
      ['Testing: pytest', 'pytest: 1 of 9 test files, 2 test cases'],
      ['Testing: unittest', 'unittest: 1 of 9 test files, 1 test case'],
      [
        'Testing: placement',
        'test files in test folders (tests/, __tests__/, ...): 5 of 8 test files (next to the source: 3)',
      ],
    ]);
    // the spec that takes `test` from the project's Playwright fixtures gets Playwright, with its import line as evidence
    expect(testing[0].examples).toEqual([
      { path: 'src/b.spec.ts', line: 1, text: "import { test, expect } from '@playwright/test';" },
      { path: 'e2e/c.spec.ts', line: 1, text: "import { test } from './fixtures';" },
      { path: 'e2e/fixtures.ts', line: 1, text: "import { test as base } from '@playwright/test';" },
    ]);
  });
});

describe('detectPatterns: robustness', () => {
  it('empty input gives no patterns; files of unknown languages and test data are ignored', () => {
    expect(detectPatterns([])).toEqual([]);
    expect(
      detectPatterns([
        { path: 'a.json', text: '{"throw": 1}' },
        { path: 'README.md', text: '# x' },
      ]),
    ).toEqual([]);
    expect(
      detectPatterns([
        { path: 'test/fixtures/a.ts', text: 'throw new Error()' },
        { path: 'node_modules/x/a.js', text: 'throw 1' },
      ]),
    ).toEqual([]);
    expect(detectPatterns([null, { path: 1 }, { path: 'a.ts' }] as never)).toEqual([]);
  });

  it('caps examples at maxExamples (0 allowed)', () => {
    const text = Array.from(
      { length: 10 },
      (_, i) => `export function fnName${i}() { throw new Error('x'); }`,
    ).join('\n');
    const one = byName(run([{ path: 'a.ts', text }], 1)).get('Error handling: throw sites')!;
    expect(one.examples).toHaveLength(1);
    expect(one.description).toBe('throws built-in errors (Error): 10 of 10 throw sites');
    expect(byName(run([{ path: 'a.ts', text }], 0)).get('Error handling: throw sites')!.examples).toEqual([]);
    expect(byName(run([{ path: 'a.ts', text }])).get('Naming: JS/TS functions')!.examples).toHaveLength(3);
  });

  it('stops when the signal is aborted: with its reason, or Cancelled', () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    expect(() => detectPatterns([{ path: 'a.ts', text: 'x' }], { signal: controller.signal })).toThrow(
      reason,
    );
    const other = new AbortController();
    other.abort('not an error');
    expect(() => detectPatterns([{ path: 'a.ts', text: 'x' }], { signal: other.signal })).toThrow(
      expect.objectContaining({ code: 'Cancelled' }),
    );
  });

  it('never throws on random text in any language, and every pattern is well formed', () => {
    const path = fc.constantFrom(
      'a.ts',
      'b.js',
      'c.py',
      'd.go',
      'e.rs',
      'f.java',
      'g.rb',
      'h.c',
      'tests/test_i.py',
      'j.test.ts',
      'index.ts',
      'k/__init__.py',
    );
    const chunk = fc.constantFrom(
      'throw new ',
      'class X extends Error {}',
      'import ',
      " from './x'",
      '`',
      '"',
      "'",
      '/*',
      '*/',
      '//',
      '#',
      '"""',
      '\n',
      '{',
      '}',
      'raise ',
      'except:',
      'def f(',
      'if err != nil',
      '?;',
      'type T = ',
      '|',
    );
    const text = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.array(chunk, { maxLength: 60 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(fc.array(fc.record({ path, text }), { maxLength: 6 }), (files) => {
        for (const p of detectPatterns(files)) {
          expect(p.name).toMatch(
            /^(Module structure|Error handling|Type conventions|Import style|Naming|Testing): /,
          );
          if (p.count !== undefined) expect(p.count).toBeLessThanOrEqual(p.total!);
          expect(p.examples.length).toBeLessThanOrEqual(3);
          for (const e of p.examples)
            if (e.text !== undefined) expect(e.text.length).toBeLessThanOrEqual(200);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a pathological line does not backtrack (10,000 characters of near-matches)', () => {
    const bad = [
      'type X<' + '<'.repeat(900) + ' = ',
      'throw ' + '('.repeat(900),
      'import {' + ' type'.repeat(190),
      'export const A' + ': x'.repeat(300),
    ];
    const start = performance.now();
    detectPatterns(bad.map((text, i) => ({ path: `f${i}.ts`, text: Array(10).fill(text).join('\n') })));
    expect(performance.now() - start).toBeLessThan(2000);
  });

  it.runIf(process.env.QUARRY_PATTERN_TIMING)('timing: TypeScript’s own lib (printed, not asserted)', () => {
    const dir = 'node_modules/typescript/lib';
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.d.ts') || f === 'typescript.js')
      .map((f) => ({ path: `lib/${f}`, text: readFileSync(`${dir}/${f}`, 'utf8') }));
    const mb = files.reduce((sum, f) => sum + f.text.length, 0) / 1e6;
    const start = performance.now();
    const patterns = detectPatterns(files);
    console.log(
      `detectPatterns: ${files.length} files, ${mb.toFixed(1)} MB in ${(performance.now() - start).toFixed(0)} ms, ${patterns.length} patterns`,
    );
  });
});
