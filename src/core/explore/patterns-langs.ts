/**
 * Python, Go and Rust conventions for explore's pattern analyzer, line by line over code with
 * comments (and Python docstrings) blanked:
 *   Python  raise sites (the repo's Exception subclasses, transitively, vs built-ins), bare
 *           `except:`, type hints on `def`s, relative vs absolute imports of the project's own
 *           modules, function and module-constant names
 *   Go      `if err != nil` checks, error construction (fmt.Errorf with %w, errors.New), import
 *           blocks grouped (standard library apart), package names against their folders
 *   Rust    the `?` operator against `.unwrap()` / `.expect(`
 */
import { baseName, dirName } from './conventions';
import type { FileScan } from './pattern-tally';
import { identifierStyle } from './patterns-js';

// ---- Python

export const PYTHON_BUILTIN_EXCEPTIONS = new Set(
  (
    'BaseException Exception ArithmeticError AssertionError AttributeError BlockingIOError BrokenPipeError BufferError ChildProcessError ' +
    'ConnectionAbortedError ConnectionError ConnectionRefusedError ConnectionResetError EOFError EnvironmentError FileExistsError ' +
    'FileNotFoundError FloatingPointError GeneratorExit IOError ImportError IndentationError IndexError InterruptedError IsADirectoryError ' +
    'KeyError KeyboardInterrupt LookupError MemoryError ModuleNotFoundError NameError NotADirectoryError NotImplementedError OSError ' +
    'OverflowError PermissionError ProcessLookupError RecursionError ReferenceError RuntimeError StopAsyncIteration StopIteration ' +
    'SyntaxError SystemError SystemExit TabError TimeoutError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError ' +
    'UnicodeError UnicodeTranslateError ValueError ZeroDivisionError ExceptionGroup BaseExceptionGroup Warning UserWarning DeprecationWarning'
  ).split(' '),
);

/** First pass over a Python file: class -> base class names (last dotted segment). */
export function collectPyClasses(code: readonly string[], classes: Map<string, string[]>): void {
  for (const line of code) {
    if (!line.includes('class')) continue;
    const m = /^\s*class\s+([A-Za-z_]\w*)\s*\(([^)]*)\)/.exec(line);
    if (!m || classes.has(m[1])) continue;
    const bases = m[2]
      .split(',')
      .map((b) => b.trim())
      .filter((b) => b !== '' && !b.includes('='))
      .map((b) => b.slice(b.lastIndexOf('.') + 1));
    classes.set(m[1], bases);
  }
}

/** The repo's exception classes: extending a built-in exception, one of these, or an imported *Error/*Exception, transitively. */
export function pythonExceptionClasses(classes: Map<string, string[]>): Set<string> {
  const out = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, bases] of classes) {
      if (out.has(name)) continue;
      if (
        bases.some(
          (b) =>
            PYTHON_BUILTIN_EXCEPTIONS.has(b) ||
            out.has(b) ||
            (!classes.has(b) && /(Error|Exception)$/.test(b)),
        )
      ) {
        out.add(name);
        changed = true;
      }
    }
  }
  return out;
}

const DEF = /^(\s*)(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/;
const PARAM_HINT = /(?:^|[,(])\s*\*{0,2}[A-Za-z_]\w*\s*:(?!=)/;

/** Python measures; `local` holds the project's own top-level module names (for absolute vs relative imports). */
export function scanPython(s: FileScan, local: ReadonlySet<string>): void {
  const { code } = s;
  for (let i = 0; i < code.length; i++) {
    const line = code[i];
    const t = line.trimStart();
    if (t === '') continue;
    const c = t[0];
    if (c === 'd' || c === 'a') {
      const def = DEF.exec(line);
      if (def) {
        s.site(signatureHinted(code, i, def[0].length) ? 'py.def.hinted' : 'py.def.plain', i);
        const name = def[2];
        if (!/^__.*__$/.test(name)) {
          const style = identifierStyle(name);
          if (style === 'camel' || style === 'snake' || style === 'pascal') s.site(`py.fn.${style}`, i);
        }
        continue;
      }
    }
    if (c === 'r' && /^raise\b/.test(t)) raiseSite(s, i, t.slice(5).trim());
    else if (c === 'e' && /^except\b/.test(t))
      s.site(/^except\s*:/.test(t) ? 'py.except.bare' : 'py.except.typed', i);
    else if (c === 'f' || c === 'i') importSite(s, i, t, local);
    if (line === t && /^[A-Za-z_]\w*\s*(?::\s*[^=]+)?=[^=]/.test(t)) {
      const k = /^([A-Za-z_]\w*)\s*(?::\s*[^=]+)?=\s*(?:-?\d|[rbfu]?['"]|True\b|False\b)/.exec(t);
      if (k && !/^__.*__$/.test(k[1]))
        s.site(identifierStyle(k[1]) === 'upper' ? 'py.const.upper' : 'py.const.other', i);
    }
  }
}

/** Whether a def's signature (from line i, possibly over several lines) has a return or parameter annotation. */
function signatureHinted(code: readonly string[], i: number, open: number): boolean {
  let depth = 1;
  let params = '';
  for (let j = i; j < code.length && j < i + 30; j++) {
    const line = j === i ? code[j].slice(open) : code[j];
    for (let k = 0; k < line.length; k++) {
      const c = line[k];
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth--;
      if (depth === 0)
        return PARAM_HINT.test(`(${params}${line.slice(0, k)}`) || /^\s*->/.test(line.slice(k + 1));
    }
    params += `${line} `;
  }
  return false;
}

function raiseSite(s: FileScan, i: number, what: string): void {
  if (what === '' || what === ';') return s.site('py.raise.bare', i);
  const m = /^([A-Za-z_][\w.]*)\s*(\(|$|from\b)/.exec(what);
  if (!m) return s.site('py.raise.other', i);
  const name = m[1].slice(m[1].lastIndexOf('.') + 1);
  if (/^[a-z_]/.test(name) && m[2] !== '(') s.site('py.raise.rethrow', i);
  else if (/^[a-z_]/.test(name)) s.site('py.raise.factory', i);
  else s.site(`py.raise.class:${name}`, i);
}

function importSite(s: FileScan, i: number, t: string, local: ReadonlySet<string>): void {
  const from = /^from\s+(\.*)([\w.]*)\s+import\b/.exec(t);
  if (from) {
    if (from[1] !== '') s.site('py.import.relative', i);
    else if (local.has(from[2].split('.')[0])) s.site('py.import.absolute', i);
    return;
  }
  const plain = /^import\s+([\w.]+)/.exec(t);
  if (plain && local.has(plain[1].split('.')[0])) s.site('py.import.absolute', i);
}

/** The project's own top-level Python module names: first folders holding .py files, and root-level .py files. */
export function pythonModules(paths: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const path of paths) {
    if (!path.endsWith('.py')) continue;
    const parts = path.split('/');
    const start = parts[0] === 'src' && parts.length > 1 ? 1 : 0;
    const top = parts[start];
    out.add(parts.length - start === 1 ? top.replace(/\.py$/, '') : top);
  }
  return out;
}

// ---- Go

export interface GoFolder {
  /** package name -> first file and line that declares it */
  packages: Map<string, { path: string; line: number; text: string }>;
}

export function scanGo(s: FileScan, folders: Map<string, GoFolder>): void {
  const { code } = s;
  let block: {
    std: boolean;
    other: boolean;
    mixedGroup: boolean;
    group: { std: boolean; other: boolean };
    start: number;
  } | null = null;
  for (let i = 0; i < code.length; i++) {
    const t = code[i].trim();
    if (block !== null) {
      if (t === ')') {
        if (block.std && block.other)
          s.file(block.mixedGroup ? 'go.imports.mixed' : 'go.imports.grouped', block.start);
        block = null;
      } else if (t === '') block.group = { std: false, other: false };
      else {
        const m = /"([^"]+)"/.exec(t);
        if (m) {
          const std = !m[1].split('/')[0].includes('.');
          if (std) block.std = block.group.std = true;
          else block.other = block.group.other = true;
          if (block.group.std && block.group.other) block.mixedGroup = true;
        }
      }
      continue;
    }
    if (t === '') continue;
    if (t.startsWith('package ')) {
      const m = /^package\s+(\w+)/.exec(t);
      if (m) {
        const name = m[1].replace(/_test$/, '');
        const dir = dirName(s.path);
        const folder = folders.get(dir) ?? { packages: new Map() };
        if (!folder.packages.has(name)) folder.packages.set(name, { path: s.path, line: i + 1, text: t });
        folders.set(dir, folder);
      }
    } else if (/^import\s*\($/.test(t)) {
      block = { std: false, other: false, mixedGroup: false, group: { std: false, other: false }, start: i };
    }
    if (t.includes('err') && /\bif\s+(?:[^{]*;\s*)?err\s*!=\s*nil\b/.test(t)) {
      s.site('go.errcheck', i);
      s.file('go.errcheck.files', i);
    }
    if (t.includes('Errorf(')) s.site(/%w/.test(t) ? 'go.err.wrap' : 'go.err.errorf', i);
    if (t.includes('errors.New(')) s.site('go.err.new', i);
    if (t.includes('errors.Wrap')) s.site('go.err.wrap', i);
  }
}

/** Go folders whose package is named after the folder (or is main), and those that are not. */
export function goPackageNaming(folders: Map<string, GoFolder>): {
  matches: number;
  main: number;
  differs: number;
  examples: Array<{ path: string; line: number; text: string }>;
} {
  const out = {
    matches: 0,
    main: 0,
    differs: 0,
    examples: [] as Array<{ path: string; line: number; text: string }>,
  };
  for (const [dir, folder] of folders) {
    const folderName = baseName(dir).replace(/[-.]/g, '').toLowerCase();
    const names = [...folder.packages.keys()];
    if (names.includes('main')) out.main++;
    else if (names.some((n) => n.toLowerCase() === folderName || (dir === '' && names.length === 1))) {
      out.matches++;
      out.examples.push(folder.packages.get(names[0])!);
    } else out.differs++;
  }
  return out;
}

// ---- Rust

const QUESTION = /[\w)\]>]\?(?=[\s;.,)\]}]|$)/g;

export function scanRust(s: FileScan): void {
  const { code } = s;
  for (let i = 0; i < code.length; i++) {
    const t = code[i];
    if (t.includes('?')) {
      let n = 0;
      for (const _ of t.matchAll(QUESTION)) n++;
      if (n > 0) s.site('rs.question', i, n);
    }
    if (t.includes('.unwrap()')) s.site('rs.unwrap', i, t.split('.unwrap()').length - 1);
    if (t.includes('.expect(')) s.site('rs.expect', i, t.split('.expect(').length - 1);
  }
}
