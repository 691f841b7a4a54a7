/** The "Error handling" patterns of explore's pattern analyzer (patterns.ts), from the tally the language scanners filled. */
import { plural } from './conventions';
import { group, pick, portion, share, type Tally } from './pattern-tally';
import { type JsClasses, throwKinds } from './patterns-js';
import { PYTHON_BUILTIN_EXCEPTIONS, pythonExceptionClasses } from './patterns-langs';
import type { Pattern } from './types';

export function errorHandling(
  tally: Tally,
  jsClasses: JsClasses,
  pyClasses: Map<string, string[]>,
  counts: { jsFiles: number; goFiles: number },
): Array<Pattern | null> {
  return [
    ...jsErrorHandling(tally, jsClasses, counts.jsFiles),
    ...pythonErrorHandling(tally, pyClasses),
    ...goRustErrorHandling(tally, counts.goFiles),
  ];
}

/** JavaScript / TypeScript: what is thrown, try/catch, promise .catch(), Result types. */
function jsErrorHandling(tally: Tally, jsClasses: JsClasses, jsFiles: number): Array<Pattern | null> {
  const kinds = throwKinds(tally, jsClasses);
  const t = 'js.throw.new:';
  const out: Array<Pattern | null> = [
    share(
      'Error handling: throw sites',
      [
        group(tally, t, kinds.custom, 'throws custom Error subclasses', 'custom errors'),
        group(tally, t, kinds.builtin, 'throws built-in errors', 'built-in errors'),
        group(tally, t, kinds.imported, 'throws imported error classes', 'imported classes'),
        group(tally, t, kinds.plain, 'throws instances of non-Error classes', 'non-Error classes'),
        pick(tally, 'js.throw.rethrow', 'rethrows caught values', 'rethrows'),
        pick(tally, 'js.throw.factory', 'throws what a function returns', 'error factories'),
        pick(tally, 'js.throw.value', 'throws non-Error values (strings, objects)', 'non-Error values'),
        pick(tally, 'js.throw.other', 'throws other expressions', 'other'),
      ],
      'throw sites',
    ),
  ];
  if (tally.count('js.try') > 0)
    out.push(
      portion(
        'Error handling: try/catch',
        `files with try/catch (${plural(tally.count('js.try'), 'block')})`,
        tally.count('js.try.files'),
        jsFiles,
        'JS/TS files',
        tally.examples('js.try'),
      ),
    );
  if (tally.count('js.catch') > 0)
    out.push(
      portion(
        'Error handling: promise .catch()',
        `files with promise .catch() (${plural(tally.count('js.catch'), 'call')})`,
        tally.count('js.catch.files'),
        jsFiles,
        'JS/TS files',
        tally.examples('js.catch'),
      ),
    );
  if (tally.count('js.result') > 0)
    out.push(
      portion(
        'Error handling: Result type',
        `files using a Result type (Result<…>, Ok(), Err(): ${plural(tally.count('js.result'), 'site')})`,
        tally.count('js.result.files'),
        jsFiles,
        'JS/TS files',
        tally.examples('js.result'),
      ),
    );
  return out;
}

/** Python: what is raised, bare except clauses. */
function pythonErrorHandling(tally: Tally, pyClasses: Map<string, string[]>): Array<Pattern | null> {
  const out: Array<Pattern | null> = [];
  const custom = pythonExceptionClasses(pyClasses);
  const raised = tally.withPrefix('py.raise.class:').map((r) => r.rest);
  out.push(
    share(
      'Error handling: Python raise',
      [
        group(
          tally,
          'py.raise.class:',
          raised.filter((c) => custom.has(c)),
          'raises custom exceptions',
          'custom exceptions',
        ),
        group(
          tally,
          'py.raise.class:',
          raised.filter((c) => !custom.has(c) && PYTHON_BUILTIN_EXCEPTIONS.has(c)),
          'raises built-in exceptions',
          'built-in exceptions',
        ),
        group(
          tally,
          'py.raise.class:',
          raised.filter((c) => !custom.has(c) && !PYTHON_BUILTIN_EXCEPTIONS.has(c)),
          'raises imported exceptions',
          'imported exceptions',
        ),
        pick(tally, 'py.raise.bare', 're-raises with a bare raise', 'bare raise'),
        pick(tally, 'py.raise.rethrow', 'raises a caught exception object', 'exception objects'),
        pick(tally, 'py.raise.factory', 'raises what a function returns', 'factories'),
        pick(tally, 'py.raise.other', 'raises other expressions', 'other'),
      ],
      'raise sites',
    ),
  );
  const excepts = tally.count('py.except.bare') + tally.count('py.except.typed');
  out.push(
    portion(
      'Error handling: bare except',
      'bare except: clauses',
      tally.count('py.except.bare'),
      excepts,
      'except clauses',
      tally.examples('py.except.bare'),
    ),
  );
  return out;
}

/** Go error checks and wrapping, Rust's ? against unwrap()/expect(). */
function goRustErrorHandling(tally: Tally, goFiles: number): Array<Pattern | null> {
  const out: Array<Pattern | null> = [];
  if (tally.count('go.errcheck') > 0)
    out.push(
      portion(
        'Error handling: Go error checks',
        `files with if err != nil checks (${plural(tally.count('go.errcheck'), 'check')})`,
        tally.count('go.errcheck.files'),
        goFiles,
        'Go files',
        tally.examples('go.errcheck'),
      ),
    );
  out.push(
    share(
      'Error handling: Go error wrapping',
      [
        pick(tally, 'go.err.wrap', 'wraps errors with fmt.Errorf("…%w") or errors.Wrap', '%w wrapping'),
        pick(tally, 'go.err.new', 'creates errors with errors.New', 'errors.New'),
        pick(tally, 'go.err.errorf', 'formats errors with fmt.Errorf without %w', 'fmt.Errorf without %w'),
      ],
      'error constructions',
    ),
    share(
      'Error handling: Rust ? operator',
      [
        pick(tally, 'rs.question', 'propagates errors with the ? operator', '?'),
        pick(tally, 'rs.unwrap', 'calls .unwrap()', 'unwrap()'),
        pick(tally, 'rs.expect', 'calls .expect()', 'expect()'),
      ],
      'error-handling sites outside tests',
    ),
  );
  return out;
}
