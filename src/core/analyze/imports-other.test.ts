import { describe, expect, it } from 'vitest';
import { extractImports, languageOfImports, resolveImport, type OtherResolveContext } from './imports-other';

describe('Python imports', () => {
  const ctx: OtherResolveContext = {
    files: new Set([
      'app/__init__.py',
      'app/main.py',
      'app/models.py',
      'app/db/__init__.py',
      'app/db/session.py',
      'src/tool/cli.py',
    ]),
  };
  it('reads import forms, relative ones included, and no comment', () => {
    expect(
      extractImports(
        'python',
        'import os, sys\nfrom .models import User\nfrom . import db, models\nfrom ..x import y\n# import nope\nfrom app.db.session import Session\n',
      ),
    ).toEqual([
      { specifier: 'os', line: 1 },
      { specifier: 'sys', line: 1 },
      { specifier: '.models', line: 2 },
      { specifier: '.db', line: 3 },
      { specifier: '.models', line: 3 },
      { specifier: '..x', line: 4 },
      { specifier: 'app.db.session', line: 6 },
    ]);
  });
  it.each([
    ['.models', 'app/main.py', { file: 'app/models.py' }],
    ['.db', 'app/main.py', { file: 'app/db/__init__.py' }],
    ['..models', 'app/db/session.py', { file: 'app/models.py' }],
    ['app.db.session', 'app/main.py', { file: 'app/db/session.py' }],
    ['app.models.User', 'app/main.py', { file: 'app/models.py' }],
    ['tool.cli', 'app/main.py', { file: 'src/tool/cli.py' }],
    ['requests', 'app/main.py', { external: 'requests' }],
  ])('%s from %s', (spec, from, expected) =>
    expect(resolveImport('python', spec, from, ctx)).toEqual(expected),
  );
});

describe('Go imports', () => {
  const ctx: OtherResolveContext = {
    files: new Set([
      'go.mod',
      'cmd/server/main.go',
      'internal/store/store.go',
      'internal/store/store_test.go',
    ]),
    goModule: { path: 'example.com/shop', dir: '' },
  };
  it('reads single imports and blocks, aliases too', () => {
    expect(
      extractImports(
        'go',
        'package main\n\nimport "fmt"\nimport (\n\t"net/http"\n\tst "example.com/shop/internal/store"\n\t// "commented/out"\n)\n',
      ),
    ).toEqual([
      { specifier: 'fmt', line: 3 },
      { specifier: 'net/http', line: 5 },
      { specifier: 'example.com/shop/internal/store', line: 6 },
    ]);
  });
  it('resolves the module path to the package folder, the rest to builtins or externals', () => {
    expect(resolveImport('go', 'example.com/shop/internal/store', 'cmd/server/main.go', ctx)).toEqual({
      file: 'internal/store/store.go',
    });
    expect(resolveImport('go', 'net/http', 'cmd/server/main.go', ctx)).toEqual({ builtin: 'net/http' });
    expect(resolveImport('go', 'github.com/gorilla/mux/sub', 'cmd/server/main.go', ctx)).toEqual({
      external: 'github.com/gorilla/mux',
    });
  });
});

describe('Rust imports', () => {
  const ctx: OtherResolveContext = {
    files: new Set([
      'src/main.rs',
      'src/config.rs',
      'src/net/mod.rs',
      'src/net/client.rs',
      'src/net/pool.rs',
    ]),
  };
  it('reads mod declarations and crate paths', () => {
    expect(
      extractImports(
        'rust',
        'mod config;\npub mod net;\nuse crate::net::client::Client;\nuse std::io;\n// mod nope;\n',
      ),
    ).toEqual([
      { specifier: 'mod:config', line: 1 },
      { specifier: 'mod:net', line: 2 },
      { specifier: 'crate::net::client::Client', line: 3 },
    ]);
  });
  it.each([
    ['mod:config', 'src/main.rs', { file: 'src/config.rs' }],
    ['mod:net', 'src/main.rs', { file: 'src/net/mod.rs' }],
    ['mod:client', 'src/net/mod.rs', { file: 'src/net/client.rs' }],
    ['crate::net::client::Client', 'src/main.rs', { file: 'src/net/client.rs' }],
    // in net/pool.rs, `super` is the net module
    ['super::client::Client', 'src/net/pool.rs', { file: 'src/net/client.rs' }],
    ['super::config', 'src/net/client.rs', { unresolved: 'super::config' }],
  ])('%s from %s', (spec, from, expected) =>
    expect(resolveImport('rust', spec, from, ctx)).toEqual(expected),
  );
});

describe('C includes', () => {
  const ctx: OtherResolveContext = { files: new Set(['src/parser.c', 'src/parser.h', 'include/api.h']) };
  it('resolves quoted includes beside the file, then from include/; angle includes are system headers', () => {
    expect(
      extractImports(
        'c',
        '#include <stdio.h>\n#include "parser.h"\n# include "api.h"\n/* #include "nope.h" */\n',
      ),
    ).toEqual([
      { specifier: '<stdio.h>', line: 1 },
      { specifier: 'parser.h', line: 2 },
      { specifier: 'api.h', line: 3 },
    ]);
    expect(resolveImport('c', 'parser.h', 'src/parser.c', ctx)).toEqual({ file: 'src/parser.h' });
    expect(resolveImport('c', 'api.h', 'src/parser.c', ctx)).toEqual({ file: 'include/api.h' });
    expect(resolveImport('c', '<stdio.h>', 'src/parser.c', ctx)).toEqual({ external: 'stdio.h' });
    expect(resolveImport('c', 'missing.h', 'src/parser.c', ctx)).toEqual({ unresolved: 'missing.h' });
  });
  it('knows which files it reads', () => {
    expect(['a.py', 'b.go', 'c.rs', 'd.hpp', 'e.ts'].map(languageOfImports)).toEqual([
      'python',
      'go',
      'rust',
      'c',
      null,
    ]);
  });
});
