import { describe, expect, it } from 'vitest';
import type { Chunk } from '../chunk/types';
import { chunkView, identifierWords, MAX_VIEW_WORDS, parameterWords, pathWords } from './views';

const chunk = (path: string, startLine: number, endLine: number, symbolName: string): Chunk => ({
  path,
  startLine,
  endLine,
  symbolName,
  chunkType: 'function',
});

/** The words of a view (its sentence joints, ". ", are not words). */
const wordsOf = (view: string) => view.split(/[\s.]+/).filter(Boolean);

describe('identifierWords', () => {
  it.each([
    ['getUserById', ['get', 'user', 'by', 'id']],
    ['user_name', ['user', 'name']],
    ['KeepAliveImpl.setup', ['keep', 'alive', 'impl', 'setup']],
    ['parseHTTPResponse', ['parse', 'http', 'response']],
    ['SCREAMING_CASE value', ['screaming', 'case', 'value']],
    ['writeBlob(oid, buf)', ['write', 'blob', 'oid', 'buf']],
    ['Renews the token!', ['renews', 'the', 'token']],
  ])('%j', (text, want) => expect(identifierWords(text)).toEqual(want));

  it('keeps a one-letter name and numbers of two digits or more, drops a lone digit and punctuation', () => {
    expect(identifierWords('x = 7 + 42;')).toEqual(['x', '42']);
    expect(identifierWords('... -> {} ()')).toEqual([]);
  });
});

describe('pathWords', () => {
  it.each([
    ['src/lib/git/writeBlob.ts', ['git', 'write', 'blob']],
    ['Src/App/index.tsx', []],
    ['pkg/server/http_server.go', ['server', 'http', 'server']],
    ['internal/auth/session.go', ['auth', 'session']],
    ['python/pkg/__init__.py', ['python']],
    ['docs/getting-started.md', ['docs', 'getting', 'started']],
    ['parsers/csv.test.ts', ['parsers', 'csv', 'test']],
    ['Makefile', ['makefile']],
    ['.eslintrc', ['eslintrc']],
  ])('%j', (path, want) => expect(pathWords(path)).toEqual(want));
});

describe('parameterWords', () => {
  it('TypeScript: names only, types and defaults dropped', () => {
    expect(
      parameterWords(
        'export function writeBlob(oid: string, buf: Uint8Array = new Uint8Array(0), opts?: WriteOptions) {',
      ),
    ).toEqual(['oid', 'buf', 'opts']);
    expect(
      parameterWords('export const area = (width: number, height = 1): number => width * height;'),
    ).toEqual(['width', 'height']);
    expect(parameterWords('function lookup(table: Map<string, number>, userId = pick(1, 2)) {')).toEqual([
      'table',
      'user',
      'id',
    ]);
    expect(parameterWords('function handle(this: Window, event: MouseEvent) {')).toEqual(['event']);
    expect(parameterWords('  private async save(public readonly store: Store) {')).toEqual(['store']);
  });

  it('TypeScript destructuring: the name inside the pattern, not the type', () => {
    const words = parameterWords('export function Button({ label, onClick }: ButtonProps) {');
    expect(words).toContain('label');
    expect(words).not.toContain('button');
    expect(words).not.toContain('props');
  });

  it('TypeScript: a parameter after a callback type keeps its generic type out', () => {
    expect(
      parameterWords('function on(handler: (e: Event) => void, options: Record<string, Listener>) {'),
    ).toEqual(['handler', 'options']);
  });

  it('Python: self dropped, annotations and defaults dropped, *args and **kwargs named', () => {
    expect(
      parameterWords('def fetch(self, url: str, timeout: float = 30.0, *args, **kwargs) -> Response:'),
    ).toEqual(['url', 'timeout', 'args', 'kwargs']);
    expect(parameterWords('def area(width, height=1):')).toEqual(['width', 'height']);
    expect(parameterWords('class Session:')).toEqual([]);
  });

  it('Go: a function’s parameter names, not their types', () => {
    expect(parameterWords('func Dial(network string, address string) (Conn, error) {')).toEqual([
      'network',
      'address',
    ]);
  });

  it('Go: a method’s parameters, not its receiver', () => {
    expect(parameterWords('func (s *Server) Serve(ctx context.Context, addr string) error {')).toEqual([
      'ctx',
      'addr',
    ]);
  });

  it('Rust: &self and &mut self dropped, mut bindings named', () => {
    expect(parameterWords('pub fn write(&mut self, buf: &[u8]) -> io::Result<usize> {')).toEqual(['buf']);
    expect(parameterWords('fn len(&self) -> usize {')).toEqual([]);
    expect(parameterWords('pub fn new(mut config: Config, state: &mut State) -> Self {')).toEqual([
      'config',
      'state',
    ]);
  });

  it('a header without parentheses takes nothing; an unclosed list is read to the end', () => {
    expect(parameterWords('const LIMIT = 10;')).toEqual([]);
    expect(parameterWords('function broken(first, second')).toEqual(['first', 'second']);
  });
});

describe('chunkView', () => {
  const SESSION = [
    'import { renewToken } from "./token";',
    '',
    '/**',
    ' * Renews the access token when the session has expired.',
    ' * @param {Token} token the current token',
    ' * @returns the renewed token',
    ' */',
    'export function refreshExpiredSession(token: Token, clock = systemClock) {',
    '  // compare against the clock',
    '  if (clock.now() > token.expiresAt) return renewToken(token, "grant_type=refresh");',
    '  return token; // unchanged while fresh',
    '}',
  ];
  const session = chunk('src/auth/session.ts', 8, 12, 'refreshExpiredSession');

  it('is a sentence: name and path words, comments, parameters, the identifiers it uses', () => {
    expect(chunkView(session, SESSION)).toBe(
      'refresh expired session auth. ' +
        'renews the access token when the session has expired token the current token the renewed token compare against the clock unchanged while fresh. ' +
        'takes token clock. ' +
        // the trailing comment's words ("unchanged while fresh") are comment words only, not body words too
        'uses export refresh expired session token clock system now expires at renew',
    );
  });

  it('includes the doc comment above and the comments inside, without JSDoc tags, types or the import above', () => {
    const view = chunkView(session, SESSION);
    expect(view).toContain('renews the access token when the session has expired');
    expect(view).toContain('compare against the clock');
    expect(view).toContain('unchanged while fresh');
    for (const w of ['param', 'returns', 'import', 'from']) expect(wordsOf(view)).not.toContain(w);
    // "{Token}" is dropped from the comment (token the current token: the name, not the type)
    expect(view).toContain('expired token the current token');
  });

  it('leaves string contents out of the body words', () => {
    const words = wordsOf(chunkView(session, SESSION));
    for (const w of ['grant', 'type']) expect(words).not.toContain(w);
    const view = chunkView(chunk('src/log.ts', 1, 3, 'logError'), [
      'function logError(e) {',
      "  console.error('disk quota exceeded', `while ${e}`);",
      '}',
    ]);
    // the signature's names are body words too
    expect(view).toBe('log error. takes e. uses log error e console');
  });

  it('does not take a comment separated from the chunk by code', () => {
    const lines = [
      '// the module header',
      'const LIMIT = 3;',
      'function clamp(n) {',
      '  return Math.min(n, LIMIT);',
      '}',
    ];
    const view = chunkView(chunk('src/clamp.ts', 3, 5, 'clamp'), lines);
    expect(view).not.toContain('header');
    expect(view).toBe('clamp. takes n. uses clamp n math min limit');
  });

  it('takes a doc comment above a decorator', () => {
    const lines = ['/** Keeps the user signed in. */', '@Injectable()', 'export class SessionKeeper {', '}'];
    const view = chunkView({ ...chunk('src/keeper.ts', 3, 4, 'SessionKeeper'), chunkType: 'class' }, lines);
    expect(view).toContain('keeps the user signed in');
  });

  it('takes a doc comment separated from its symbol by one blank line', () => {
    const lines = [
      '/** Splits comma separated text into rows. */',
      '',
      'export function parseCsv(text: string) {',
      '  return text.split(NEWLINE);',
      '}',
    ];
    expect(chunkView(chunk('src/csv/parse.ts', 3, 5, 'parseCsv'), lines)).toContain(
      'splits comma separated text into rows',
    );
  });

  it('says "takes nothing" for a chunk with code but no parameters', () => {
    expect(
      chunkView(chunk('src/boot.ts', 1, 3, 'boot'), ['function boot() {', '  startServer();', '}']),
    ).toBe('boot. takes nothing. uses boot start server');
  });

  it('gives just the head words for a chunk with nothing but a name', () => {
    const view = chunkView({ ...chunk('package.json', 2, 2, 'name'), chunkType: 'key' }, [
      '{',
      '  "name": "quarry",',
      '}',
    ]);
    expect(view).toBe('name package');
    // name words then path words, each once, noise folders and the extension left out
    expect(chunkView(chunk('src/lib/storage/blob_store.ts', 1, 1, 'BlobStore'), [''])).toBe(
      'blob store storage',
    );
  });

  it(`is capped at MAX_VIEW_WORDS (${MAX_VIEW_WORDS}) words, the head first`, () => {
    const letters = (i: number) => String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26));
    const comment = Array.from({ length: 150 }, (_, i) => `word${letters(i)}`);
    const lines = [
      `// ${comment.join(' ')}`,
      'function writeBlob(oid, data) {',
      '  store.put(oid, data);',
      '}',
    ];
    const view = chunkView(chunk('src/git/blob.ts', 2, 4, 'writeBlob'), lines);
    const words = wordsOf(view);
    expect(words.length).toBe(MAX_VIEW_WORDS);
    expect(view.startsWith('write blob git. ')).toBe(true);
    // the comment fills the rest of the cap: no "takes" or "uses" sentence is left
    expect(words).not.toContain('takes');
    expect(words.slice(3)).toEqual(comment.slice(0, MAX_VIEW_WORDS - 3));
  });

  it('is capped too when the parameters are many', () => {
    const params = Array.from(
      { length: 120 },
      (_, i) => `param${String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26))}`,
    );
    const view = chunkView(chunk('src/wide.ts', 1, 1, 'wide'), [`function wide(${params.join(', ')}) {}`]);
    expect(wordsOf(view).length).toBe(MAX_VIEW_WORDS);
    expect(view.startsWith('wide. takes ')).toBe(true);
  });

  it('gives the head words when the file’s lines are missing (an unreadable file)', () => {
    expect(chunkView(chunk('src/auth/session.ts', 8, 12, 'refreshExpiredSession'), [])).toBe(
      'refresh expired session auth',
    );
  });
});
