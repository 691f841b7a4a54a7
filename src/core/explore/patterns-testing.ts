/**
 * Test frameworks for explore's pattern analyzer: which framework a test file uses, from its
 * imports first (vitest, @jest/globals, node:test, @playwright/test, mocha, pytest, unittest,
 * Go's testing, JUnit, ...) and from usage when it imports none (jest.fn(), Deno.test(), bare
 * describe/it), and how many test cases it holds (`it(`/`test(`, `def test_`, `func TestX(t
 * *testing.T)`, `#[test]`, `@Test`, `[Fact]`). Rust, JVM and .NET tests are found by their
 * attributes in any file; other languages' tests by the test file conventions (conventions.ts).
 */
import type { Lang } from './conventions';
import type { FileScan } from './pattern-tally';

const JS_IMPORTS: Array<[RegExp, string]> = [
  [/^vitest(\/|$)/, 'Vitest'],
  [/^@jest\/globals$/, 'Jest'],
  [/^(node:)?test$/, 'node:test'],
  [/^@playwright\/(test|experimental-ct-\w+)$/, 'Playwright'],
  [/^mocha$/, 'Mocha'],
  [/^bun:test$/, 'Bun test'],
  [/^ava$/, 'AVA'],
  [/^tap$/, 'node-tap'],
  [/^uvu(\/|$)/, 'uvu'],
  [/^@std\/(testing|assert)|deno\.land\/std.*\/testing\//, 'Deno test'],
];

const JS_CASE =
  /^\s*(?:it|test)(?:\.(?:only|skip|todo|fails|concurrent|sequential|each|fixme|failing|skipIf|runIf)\b(?:\([^)]*\))?)*\s*[(`]/;
const JS_SPECIFIER = /(?:\bfrom\s*|^\s*import\s*|\brequire\s*\(\s*)(['"])([^'"]+)\1/;

/** Whether a file not named as a test holds tests by its language's attributes (Rust #[test], JUnit @Test, xUnit [Fact]). */
export function hasTestAttributes(lang: Lang, text: string): boolean {
  if (lang === 'rust') return text.includes('#[test]') || /#\[[\w:]*::test\b/.test(text);
  if (lang === 'java' || lang === 'kotlin') return /@(?:Test|ParameterizedTest)\b/.test(text);
  if (lang === 'csharp') return /\[(?:Fact|Theory|Test|TestMethod|TestCase)\b/.test(text);
  return false;
}

/** The test framework a JS/TS module imports, or null. */
export function importedJsFramework(code: readonly string[]): { name: string; line: number } | null {
  for (let i = 0; i < code.length; i++) {
    if (!code[i].includes('import') && !code[i].includes('require')) continue;
    const m = JS_SPECIFIER.exec(code[i]);
    const hit = m ? JS_IMPORTS.find(([re]) => re.test(m[2])) : undefined;
    if (hit) return { name: hit[1], line: i };
  }
  return null;
}

/** `test`, `it` or `describe` imported from a module of the project (`import { test } from './fixtures'`). */
const LOCAL_TEST_IMPORT = /^\s*import\s*\{([^}]*)\}\s*from\s*(['"])(\.{1,2}\/[^'"]+)\2/;

/**
 * The framework of one test file, with its test cases counted: keys test.fw:<framework> (per
 * file) and test.cases:<framework>. A JS/TS file that takes `test` from a module of the project
 * (Playwright fixtures) gets that module's framework through `frameworkOfModule`.
 */
export function scanTestFile(
  s: FileScan,
  lang: Lang,
  frameworkOfModule: (from: string, specifier: string) => string | null = () => null,
): string | null {
  const found = frameworkOf(s, lang, frameworkOfModule);
  if (!found) return null;
  s.file(`test.fw:${found.name}`, found.line);
  const cases = countCases(s.code, lang, found.name);
  if (cases > 0) s.tally.add(`test.cases:${found.name}`, undefined, cases);
  return found.name;
}

function frameworkOf(
  s: FileScan,
  lang: Lang,
  frameworkOfModule: (from: string, specifier: string) => string | null,
): { name: string; line: number } | null {
  const { code } = s;
  const find = (re: RegExp) => code.findIndex((l) => re.test(l));
  switch (lang) {
    case 'ts':
    case 'js': {
      const imported = importedJsFramework(code);
      if (imported) return imported;
      for (let i = 0; i < code.length; i++) {
        const m = code[i].includes('import') ? LOCAL_TEST_IMPORT.exec(code[i]) : null;
        if (!m || !/\b(test|it|describe)\b/.test(m[1])) continue;
        const name = frameworkOfModule(s.path, m[3]);
        if (name) return { name, line: i };
      }
      const usages: Array<[RegExp, string]> = [
        [/\bDeno\.test\s*\(/, 'Deno test'],
        [/\bjest\.(?:fn|mock|spyOn|useFakeTimers)\b/, 'Jest'],
        [/\bvi\.(?:fn|mock|spyOn|useFakeTimers)\b/, 'Vitest'],
        [/\bcy\.\w+\(/, 'Cypress'],
        [/^\s*(?:describe|it|test)\s*\(/, 'describe/it globals'],
      ];
      for (const [re, name] of usages) {
        const i = find(re);
        if (i >= 0) return { name, line: i };
      }
      return null;
    }
    case 'python': {
      const unittest = find(/^\s*class\s+\w+\s*\([^)]*\bTestCase\b/);
      if (unittest >= 0) return { name: 'unittest', line: unittest };
      const pytest = find(/^\s*(?:import\s+pytest|from\s+pytest\b|@pytest\.)/);
      if (pytest >= 0) return { name: 'pytest', line: pytest };
      const plain = find(/^\s*(?:async\s+)?def\s+test\w*\s*\(/);
      return plain >= 0 ? { name: 'pytest', line: plain } : null;
    }
    case 'go': {
      const i = find(/^func\s+(?:Test|Benchmark|Fuzz)\w*\s*\(/);
      return i >= 0 ? { name: 'Go testing', line: i } : null;
    }
    case 'rust': {
      const i = find(/#\[(?:[\w:]*::)?test\b/);
      return i >= 0 ? { name: 'Rust #[test]', line: i } : null;
    }
    case 'java':
    case 'kotlin': {
      const testng = find(/^\s*import\s+org\.testng\b/);
      if (testng >= 0) return { name: 'TestNG', line: testng };
      const junit = find(/^\s*import\s+(?:static\s+)?org\.junit\b/);
      if (junit >= 0) return { name: 'JUnit', line: junit };
      const i = find(/@Test\b/);
      return i >= 0 ? { name: 'JUnit', line: i } : null;
    }
    case 'csharp': {
      const attrs: Array<[RegExp, string]> = [
        [/\[(?:Fact|Theory)\b/, 'xUnit'],
        [/\[(?:Test|TestCase)\b/, 'NUnit'],
        [/\[TestMethod\b/, 'MSTest'],
      ];
      for (const [re, name] of attrs) {
        const i = find(re);
        if (i >= 0) return { name, line: i };
      }
      return null;
    }
    case 'ruby': {
      const i = find(/^\s*(?:RSpec\.)?describe\b/);
      if (i >= 0) return { name: 'RSpec', line: i };
      const m = find(/Minitest::Test|^\s*def\s+test_/);
      return m >= 0 ? { name: 'Minitest', line: m } : null;
    }
    default:
      return null;
  }
}

function countCases(code: readonly string[], lang: Lang, framework: string): number {
  let re: RegExp;
  switch (lang) {
    case 'ts':
    case 'js':
      re = framework === 'Deno test' ? /\bDeno\.test\s*\(|^\s*(?:it|test)\s*\(/ : JS_CASE;
      break;
    case 'python':
      re = /^\s*(?:async\s+)?def\s+test\w*\s*\(/;
      break;
    case 'go':
      re = /^func\s+Test\w*\s*\(\s*\w+\s+\*testing\.T\s*\)/;
      break;
    case 'rust':
      re = /#\[(?:[\w:]*::)?test\b/;
      break;
    case 'java':
    case 'kotlin':
      re = /@(?:Test|ParameterizedTest)\b/;
      break;
    case 'csharp':
      re = /\[(?:Fact|Theory|Test|TestCase|TestMethod)\b/;
      break;
    case 'ruby':
      re = framework === 'RSpec' ? /^\s*it\s*[('"{]|^\s*it\s+do\b/ : /^\s*def\s+test_/;
      break;
    default:
      return 0;
  }
  let n = 0;
  for (const line of code) if (line !== '' && re.test(line)) n++;
  return n;
}
