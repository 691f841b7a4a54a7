/**
 * JS/TS conventions for explore's pattern analyzer, counted line by line over code with its
 * comments blanked (pattern-scan.ts): module system and exports, barrel files, throw sites,
 * try/catch, promise .catch(), Result types, interfaces and type aliases, `any`, enums,
 * import specifiers, function and constant names. Statements are recognized by how their line
 * starts, so a multi-line statement counts once, at its first line.
 */
import type { FileScan, Tally } from './pattern-tally';

/** Classes the repo declares, for telling its own Error subclasses from other thrown things. */
export interface JsClasses {
  /** class -> the class it extends (last segment: `errors.Base` -> `Base`) */
  parents: Map<string, string>;
  declared: Set<string>;
}

export const newJsClasses = (): JsClasses => ({ parents: new Map(), declared: new Set() });

export const BUILTIN_ERRORS = new Set([
  'Error',
  'TypeError',
  'RangeError',
  'SyntaxError',
  'ReferenceError',
  'EvalError',
  'URIError',
  'AggregateError',
  'DOMException',
  'SuppressedError',
]);

export const NODE_BUILTINS = new Set(
  (
    'assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns domain events fs http http2 https ' +
    'inspector module net os path perf_hooks process punycode querystring readline repl stream string_decoder sys timers tls trace_events tty ' +
    'url util v8 vm wasi worker_threads zlib'
  ).split(' '),
);

const CLASS = /\bclass\s+([A-Za-z_$][\w$]*)(?:\s*<[^>{]*>)?(?:\s+extends\s+([A-Za-z_$][\w$.]*))?/;
const FROM = /\bfrom\s*(['"])([^'"]+)\1/;
const SIDE_EFFECT_IMPORT = /^import\s*(['"])([^'"]+)\1/;
const REQUIRE = /\brequire\s*\(\s*(['"])([^'"]+)\1\s*\)/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*(['"])([^'"]+)\1/g;
const NAMED_EXPORT =
  /^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|var|function|class|abstract|interface|type|enum|namespace)\b|^export\s*[{*]/;
const DEFAULT_EXPORT = /^export\s+default\b|^export\s*\{[^}]*\bas\s+default\b/;
const RE_EXPORT = /^export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s*(?:as\s+[\w$]+\s*)?from\s*['"]/;
const INTERFACE = /^(?:export\s+)?(?:default\s+)?(?:declare\s+)?interface\s+[A-Za-z_$]/;
const TYPE_ALIAS = /^(?:export\s+)?(?:declare\s+)?type\s+[A-Za-z_$][\w$]*\s*(?:<.*?>)?\s*=(.*)$/;
const ENUM = /^(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+[A-Za-z_$]/;
const ANY = /:\s*any\b|\bas\s+any\b|<any\s*[>,]|,\s*any\s*>|\bany\[\]/g;
const FUNCTION = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/;
const ARROW =
  /^(?:export\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=\s*(?:async\s+)?(?:function\b|\(|[A-Za-z_$][\w$]*\s*=>)/;
/** The keywords the per-line checks look for (exports/require for CommonJS too): a line without any is skipped by them. */
const RARE = /require|import|exports|class|throw|try|catch|Result|Ok\(|Err\(|any/;
const LITERAL_CONST =
  /^(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*(?::[^=]*)?=\s*(?:-?\d|['"]|`[^`$]*`|true\b|false\b|\/[^/*])/;

/** An identifier's case style; 'single' for one lower-case word (compatible with several). */
export function identifierStyle(name: string): 'camel' | 'snake' | 'pascal' | 'upper' | 'single' | 'other' {
  const n = name.replace(/^[_$]+|[_$]+$/g, '');
  if (/^[a-z][a-z0-9]*$/.test(n)) return 'single';
  if (/^[a-z][a-zA-Z0-9]*$/.test(n)) return 'camel';
  if (/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(n)) return 'snake';
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(n)) return 'upper';
  if (/^[A-Z][a-zA-Z0-9]*$/.test(n)) return 'pascal';
  return 'other';
}

/** An import specifier's kind. */
export function specifierKind(spec: string): 'relative' | 'alias' | 'builtin' | 'package' {
  if (spec === '.' || spec === '..' || spec.startsWith('./') || spec.startsWith('../')) return 'relative';
  if (/^(@\/|~\/|#|\$)/.test(spec)) return 'alias';
  if (spec.startsWith('node:') || NODE_BUILTINS.has(spec.split('/')[0])) return 'builtin';
  return 'package';
}

/** A class declaration on a line: its name, and the class it extends. */
function collectClass(line: string, classes: JsClasses): void {
  const m = CLASS.exec(line);
  if (!m) return;
  classes.declared.add(m[1]);
  if (m[2] && !classes.parents.has(m[1])) classes.parents.set(m[1], m[2].slice(m[2].lastIndexOf('.') + 1));
}

/** The classes that extend Error, directly or through other classes (an imported base named *Error/*Exception counts). */
export function errorClasses(classes: JsClasses): Set<string> {
  const out = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const [child, parent] of classes.parents) {
      if (out.has(child)) continue;
      if (
        BUILTIN_ERRORS.has(parent) ||
        out.has(parent) ||
        (!classes.declared.has(parent) && /(Error|Exception)$/.test(parent))
      ) {
        out.add(child);
        changed = true;
      }
    }
  }
  return out;
}

/** Every measure of one JS/TS file; the classes it declares are added to `classes` (throw sites are told apart once all are known). */
export function scanJs(s: FileScan, classes: JsClasses, options: { ts: boolean; index: boolean }): void {
  const { code } = s;
  let esm = -1; // the first line of each module system
  let cjs = -1;
  let named = -1;
  let defaulted = -1;
  let pending: 'import' | 'export' | null = null; // a brace list open since an earlier line
  let pendingLine = 0;
  let inline = false; // the pending import has an inline `type` specifier (counted once)
  let barrel = options.index;
  let reexports = 0;
  for (let i = 0; i < code.length; i++) {
    const line = code[i];
    const t = line.trimStart();
    if (t === '') continue;
    let statement = false; // an import/export line (or part of one): what a barrel may hold
    if (pending !== null) {
      statement = true;
      if (pending === 'import' && options.ts && !inline && /^type\s+[A-Za-z_$]/.test(t)) {
        inline = true;
        s.site('ts.import.inline', pendingLine);
      }
      const from = FROM.exec(t);
      if (from) {
        specifier(s, i, from[2]);
        if (pending === 'export') reexports++;
        pending = null;
      } else if (t.includes('}')) pending = null;
    } else if (t.startsWith('import') && /^import(?:\s|\{|\*|['"])/.test(t)) {
      statement = true;
      if (esm < 0) esm = i;
      if (options.ts) {
        s.site('ts.import', i);
        if (/^import\s+type\b/.test(t)) s.site('ts.import.type', i);
        else if (/[{,]\s*type\s+[A-Za-z_$]/.test(t)) s.site('ts.import.inline', i);
      }
      const from = FROM.exec(t) ?? SIDE_EFFECT_IMPORT.exec(t);
      if (from) specifier(s, i, from[2]);
      else if (t.includes('{') && !t.includes('}')) {
        pending = 'import';
        pendingLine = i;
        inline = /[{,]\s*type\s+[A-Za-z_$]/.test(t);
      }
    } else if (t.startsWith('export') && /^export(?:\s|\{|\*)/.test(t)) {
      if (esm < 0) esm = i;
      if (DEFAULT_EXPORT.test(t)) defaulted = defaulted < 0 ? i : defaulted;
      else if (NAMED_EXPORT.test(t)) named = named < 0 ? i : named;
      if (RE_EXPORT.test(t)) {
        statement = true;
        reexports++;
        const from = FROM.exec(t);
        if (from) specifier(s, i, from[2]);
      } else if (/^export\s+(?:type\s+)?\{/.test(t)) {
        statement = true;
        if (!t.includes('}')) pending = 'export';
      } else if (/^export\s+(?:type\s+)?\*/.test(t)) statement = true;
    } else if (/^['"]{2};?$/.test(t) && /^\s*['"]use (strict|client|server)['"]/.test(s.raw[i]))
      statement = true; // a directive (its text blanked)
    if (!statement) barrel = false;

    // one pass over the line for the rare keywords before any of the checks below
    if (RARE.test(t)) {
      if (t.includes('require') || t.includes('import(') || t.includes('import (')) {
        for (const m of t.matchAll(REQUIRE)) {
          if (cjs < 0) cjs = i;
          specifier(s, i, m[2]);
        }
        for (const m of t.matchAll(DYNAMIC_IMPORT)) specifier(s, i, m[2]);
      }
      if (cjs < 0 && (t.startsWith('module.exports') || /^exports\.[\w$]+\s*=/.test(t))) cjs = i;
      if (t.includes('class')) collectClass(t, classes);
      if (t.includes('throw')) throwSite(s, i, t);
      if (t.includes('try') && /(?:^|[^\w$.])try\s*(?:\{|$)/.test(t)) {
        s.site('js.try', i);
        s.file('js.try.files', i);
      }
      if (t.includes('.catch')) {
        const n = t.split('.catch(').length - 1;
        if (n > 0) {
          s.site('js.catch', i, n);
          s.file('js.catch.files', i);
        }
      }
      if (
        (t.includes('Result<') || t.includes('Ok(') || t.includes('Err(')) &&
        /\bResult<|\b(?:Ok|Err)\s*\(/.test(t)
      ) {
        s.site('js.result', i);
        s.file('js.result.files', i);
      }
    }
    if (options.ts) {
      typeDeclarations(s, i, t);
      if (t.includes('any')) anySites(s, i, t);
    }
    names(s, i, line, t);
  }
  if (esm >= 0 || cjs >= 0)
    s.file(
      esm >= 0 && cjs >= 0 ? 'js.mod.both' : esm >= 0 ? 'js.mod.esm' : 'js.mod.cjs',
      esm >= 0 ? esm : cjs,
    );
  if (defaulted >= 0) s.file('js.exp.default', defaulted);
  else if (named >= 0) s.file('js.exp.named', named);
  if (options.index) {
    s.file('js.index');
    if (barrel && reexports > 0) s.file('js.barrel');
  }
}

function specifier(s: FileScan, i: number, spec: string): void {
  const kind = specifierKind(spec);
  s.site(`js.spec.${kind}`, i);
  if (kind === 'builtin') s.site(spec.startsWith('node:') ? 'js.builtin.prefixed' : 'js.builtin.bare', i);
  if (kind !== 'relative') return;
  const last = spec.slice(spec.lastIndexOf('/') + 1);
  const ext = /\.([cm]?[jt]sx?)$/.exec(last);
  if (ext) {
    s.site('js.rel.ext', i);
    s.tally.add(`js.rel.ext:.${ext[1]}`);
  } else if (!last.includes('.') || last === '.' || last === '..') s.site('js.rel.noext', i);
}

/** A throw site, by what it throws. */
function throwSite(s: FileScan, i: number, t: string): void {
  const m = /(?:^|[^\w$.])throw\s+(.+)$/.exec(t);
  if (!m) return;
  const what = m[1].trim();
  const made =
    /^new\s+([A-Za-z_$][\w$.]*)/.exec(what) ?? /^((?:[A-Z][\w$]*)?(?:Error|Exception))\s*\(/.exec(what);
  if (made) s.site(`js.throw.new:${made[1].slice(made[1].lastIndexOf('.') + 1)}`, i);
  else if (/^['"`]/.test(what) || /^[{[\d-]/.test(what) || /^(null|undefined|true|false)\b/.test(what))
    s.site('js.throw.value', i);
  else if (/^[A-Za-z_$][\w$.]*\s*;?$/.test(what)) s.site('js.throw.rethrow', i);
  else if (/^[A-Za-z_$][\w$.]*\s*\(/.test(what) || /^await\s/.test(what)) s.site('js.throw.factory', i);
  else s.site('js.throw.other', i);
}

function typeDeclarations(s: FileScan, i: number, t: string): void {
  const c = t[0];
  if (c !== 'e' && c !== 'i' && c !== 't' && c !== 'd' && c !== 'c') return;
  if (INTERFACE.test(t)) s.site('ts.interface', i);
  else if (ENUM.test(t)) s.site('ts.enum', i);
  else {
    const alias = TYPE_ALIAS.exec(t);
    if (!alias) return;
    let rhs = alias[1].trim();
    if (rhs === '') rhs = nextCode(s.code, i);
    if (rhs.startsWith('{')) s.site('ts.objectAlias', i);
    else if (
      /^\|?\s*(['"])[^'"]*\1/.test(rhs) &&
      (rhs.replace(/^\|/, '').includes('|') || nextCode(s.code, i).startsWith('|'))
    )
      s.site('ts.literalUnion', i);
    else s.site('ts.otherAlias', i);
  }
}

function anySites(s: FileScan, i: number, t: string): void {
  let n = 0;
  for (const _ of t.matchAll(ANY)) n++;
  if (n > 0) {
    s.site('ts.any', i, n);
    s.file('ts.any.files', i);
  }
}

function nextCode(code: readonly string[], i: number): string {
  for (let j = i + 1; j < code.length && j < i + 5; j++) {
    const t = code[j].trim();
    if (t !== '') return t;
  }
  return '';
}

function names(s: FileScan, i: number, line: string, t: string): void {
  const c = t[0];
  if (c !== 'e' && c !== 'f' && c !== 'a' && c !== 'c' && c !== 'l' && c !== 'v') return;
  const fn = FUNCTION.exec(t) ?? ARROW.exec(t);
  if (fn) {
    const style = identifierStyle(fn[1]);
    if (style === 'camel' || style === 'snake' || style === 'pascal') s.site(`js.fn.${style}`, i);
    return;
  }
  if (line === t) {
    const k = LITERAL_CONST.exec(t); // a top-level constant bound to a literal
    if (k) s.site(identifierStyle(k[1]) === 'upper' ? 'js.const.upper' : 'js.const.other', i);
  }
}

/** The custom, built-in and other classes thrown, from the per-class counts. */
export function throwKinds(
  tally: Tally,
  classes: JsClasses,
): { custom: string[]; builtin: string[]; imported: string[]; plain: string[] } {
  const errors = errorClasses(classes);
  const out = {
    custom: [] as string[],
    builtin: [] as string[],
    imported: [] as string[],
    plain: [] as string[],
  };
  for (const { rest } of tally.withPrefix('js.throw.new:')) {
    if (errors.has(rest)) out.custom.push(rest);
    else if (BUILTIN_ERRORS.has(rest)) out.builtin.push(rest);
    else if (classes.declared.has(rest)) out.plain.push(rest);
    else out.imported.push(rest);
  }
  return out;
}
