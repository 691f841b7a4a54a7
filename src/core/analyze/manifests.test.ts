/** Manifests: which files are manifests, the JSON kinds (npm, tsconfig, deno, composer), and that no text makes parseManifest throw. Other kinds: manifests-languages.test.ts. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankComments } from './manifest-text';
import {
  manifestKindOf,
  parseManifest,
  type Dependency,
  type Manifest,
  type ManifestKind,
} from './manifests';

function read(path: string, text: string): Manifest {
  const m = parseManifest(path, text);
  if (!m) throw new Error(`${path} is not a manifest`);
  return m;
}

const dep = (name: string, version: string | null, scope: Dependency['scope'] = 'runtime'): Dependency => ({
  name,
  version,
  scope,
});

describe('manifestKindOf', () => {
  const cases: Array<[string, ManifestKind | null]> = [
    ['package.json', 'npm'],
    ['packages/web/package.json', 'npm'],
    ['tsconfig.json', 'tsconfig'],
    ['tsconfig.build.json', 'tsconfig'],
    ['apps/site/jsconfig.json', 'tsconfig'],
    ['deno.json', 'deno'],
    ['deno.jsonc', 'deno'],
    ['crates/core/Cargo.toml', 'cargo'],
    ['go.mod', 'go'],
    ['pyproject.toml', 'python'],
    ['requirements.txt', 'python'],
    ['requirements-dev.txt', 'python'],
    ['requirements/base.txt', 'python'],
    ['setup.cfg', 'python'],
    ['composer.json', 'composer'],
    ['Gemfile', 'gem'],
    ['pom.xml', 'maven'],
    ['app/build.gradle', 'gradle'],
    ['build.gradle.kts', 'gradle'],
    ['node_modules/react/package.json', null],
    ['web/node_modules/@types/node/package.json', null],
    ['vendor/github.com/x/y/go.mod', null],
    ['vendor/laravel/framework/composer.json', null],
    ['package-lock.json', null],
    ['Cargo.lock', null],
    ['src/package.ts', null],
    ['settings.gradle', null],
    ['docs/requirements.md', null],
  ];
  it.each(cases)('%s', (path, kind) => expect(manifestKindOf(path)).toBe(kind));
  it('parseManifest is null for other files', () => expect(parseManifest('README.md', '# hi')).toBeNull());
});

describe('npm', () => {
  const text = `{
  "name": "@acme/web",
  "version": "2.3.0",
  "private": true,
  "main": "./dist/index.cjs",
  "module": "./dist/index.mjs",
  "exports": {
    ".": { "types": "./dist/index.d.ts", "import": "./dist/index.mjs", "require": "./dist/index.cjs" },
    "./server": { "node": "./dist/server.mjs", "default": null },
    "./package.json": "./package.json"
  },
  "bin": { "acme": "./bin/acme.js" },
  "workspaces": ["packages/*", "apps/*"],
  "scripts": { "build": "tsc -b", "test": "vitest run", "weird": 42 },
  "dependencies": { "react": "^18.2.0", "@acme/ui": "workspace:*" },
  "devDependencies": { "typescript": "~5.4.0", "react": "^18.2.0" },
  "peerDependencies": { "react-dom": ">=18" },
  "optionalDependencies": { "fsevents": "2.3.3" }
}`;
  it('reads name, dependencies by field, scripts, entry points and workspaces', () => {
    expect(read('package.json', text)).toEqual({
      path: 'package.json',
      kind: 'npm',
      name: '@acme/web',
      version: '2.3.0',
      dependencies: [
        dep('react', '^18.2.0'),
        dep('@acme/ui', 'workspace:*'),
        dep('typescript', '~5.4.0', 'dev'),
        dep('react', '^18.2.0', 'dev'),
        dep('react-dom', '>=18', 'peer'),
        dep('fsevents', '2.3.3', 'optional'),
      ],
      scripts: { build: 'tsc -b', test: 'vitest run' },
      entryPoints: [
        'dist/index.cjs',
        'dist/index.mjs',
        'dist/index.d.ts',
        'dist/server.mjs',
        'package.json',
        'bin/acme.js',
      ],
      workspaces: ['packages/*', 'apps/*'],
      errors: [],
    });
  });
  it('takes yarn workspaces.packages, a string bin and a string exports', () => {
    const m = read(
      'package.json',
      '{"name":"x","bin":"cli.js","exports":"./index.js","workspaces":{"packages":["libs/*"],"nohoist":["**/rn"]}}',
    );
    expect(m.entryPoints).toEqual(['index.js', 'cli.js']);
    expect(m.workspaces).toEqual(['libs/*']);
    expect(m.scripts).toBeUndefined();
  });
  it('invalid JSON: the error, and what a lenient read still finds', () => {
    const m = read('package.json', '{\n  "name": "x", // a comment\n  "dependencies": { "a": "1", },\n}');
    expect(m.errors).toHaveLength(1);
    expect(m.errors[0]).toMatch(/^invalid JSON: /);
    expect(m.name).toBe('x');
    expect(m.dependencies).toEqual([dep('a', '1')]);
  });
  it('truncated JSON: an error, nothing else', () => {
    const m = read('package.json', '{"name": "x", "dependencies": {');
    expect(m.errors[0]).toMatch(/^invalid JSON: /);
    expect(m.dependencies).toEqual([]);
  });
  it('a JSON value that is not an object', () =>
    expect(read('package.json', '[1, 2]').errors).toEqual(['expected a JSON object']));
  it('keys named like Object.prototype members are data', () => {
    const m = read(
      'package.json',
      '{"scripts":{"__proto__":"evil","constructor":"c"},"dependencies":{"__proto__":"1"}}',
    );
    expect(Object.getPrototypeOf(m.scripts)).toBe(Object.prototype);
    expect(Object.keys(m.scripts ?? {})).toEqual(['__proto__', 'constructor']);
    expect(m.dependencies).toEqual([dep('__proto__', '1')]);
  });
});

describe('tsconfig / jsconfig', () => {
  const text = `// root config
{
  "extends": "./tsconfig.base.json",
  "compilerOptions": {
    /* where non-relative imports start */
    "baseUrl": ".",
    "paths": {
      "@/*": ["src/*"], // app code
      "~lib": ["lib/index.ts", "lib/fallback.ts",],
      "http://not-a-comment/*": ["x/*"],
    },
    "strict": true,
  },
  "include": ["src"],
}`;
  it('reads baseUrl, paths and extends through comments and trailing commas', () => {
    const m = read('tsconfig.json', text);
    expect(m).toMatchObject({
      kind: 'tsconfig',
      name: null,
      version: null,
      dependencies: [],
      errors: [],
      baseUrl: '.',
      extends: ['./tsconfig.base.json'],
    });
    expect(m.paths).toEqual({
      '@/*': ['src/*'],
      '~lib': ['lib/index.ts', 'lib/fallback.ts'],
      'http://not-a-comment/*': ['x/*'],
    });
  });
  it('jsconfig and tsconfig.*.json, extends as an array', () => {
    expect(read('jsconfig.json', '{"compilerOptions":{"baseUrl":"src"}}').baseUrl).toBe('src');
    expect(read('tsconfig.app.json', '{"extends":["@tsconfig/node20","./base.json"]}').extends).toEqual([
      '@tsconfig/node20',
      './base.json',
    ]);
  });
  it('unreadable JSON gives the error and no fields', () => {
    const m = read('tsconfig.json', '{ "compilerOptions": { "baseUrl": "." ');
    expect(m.errors).toEqual([expect.stringMatching(/^invalid JSON: .* at line 1$/)]);
    expect(m.baseUrl).toBeUndefined();
  });
  it('a comment marker inside a string is text; keys named like Object.prototype members are data', () => {
    const m = read(
      'tsconfig.json',
      '{"compilerOptions": {"baseUrl": "a//b/*c*/", "paths": {"__proto__": ["p"], "constructor": ["c",],},},}',
    );
    expect(m.errors).toEqual([]);
    expect(m.baseUrl).toBe('a//b/*c*/');
    expect(Object.getPrototypeOf(m.paths)).toBe(Object.prototype);
    expect(Object.entries(m.paths ?? {})).toEqual([
      ['__proto__', ['p']],
      ['constructor', ['c']],
    ]);
  });
});

describe('blankComments', () => {
  it('blank an unterminated block comment to the end, keeping newlines', () =>
    expect(blankComments('a /* b\nc', '"')).toBe('a     \n '));
  it('respect single quotes when asked (Gradle)', () =>
    expect(blankComments("url 'http://x' // y", `"'`)).toBe("url 'http://x'     "));
});

describe('deno', () => {
  const text = `{
  // deno.jsonc
  "name": "@acme/tools",
  "version": "0.4.1",
  "exports": { ".": "./mod.ts", "./cli": "./cli.ts" },
  "imports": {
    "@std/assert": "jsr:@std/assert@^1.0.0",
    "@std/assert/": "jsr:/@std/assert@^1.0.0/",
    "chalk": "npm:chalk@5",
    "oak": "https://deno.land/x/oak@v12.6.1/mod.ts",
    "signals": "https://esm.sh/@preact/signals@1.2.0",
    "~/": "./src/",
  },
  "tasks": { "dev": "deno run --watch main.ts", "check": { "command": "deno check mod.ts", "description": "types" } },
  "workspace": ["./packages/a", "./packages/b"],
}`;
  it('reads imports as paths and as dependencies, tasks, exports and workspace', () => {
    expect(read('deno.jsonc', text)).toEqual({
      path: 'deno.jsonc',
      kind: 'deno',
      name: '@acme/tools',
      version: '0.4.1',
      dependencies: [
        dep('@std/assert', '^1.0.0'),
        dep('chalk', '5'),
        dep('deno.land/x/oak', 'v12.6.1'),
        dep('esm.sh/@preact/signals', '1.2.0'),
      ],
      paths: {
        '@std/assert': ['jsr:@std/assert@^1.0.0'],
        '@std/assert/': ['jsr:/@std/assert@^1.0.0/'],
        chalk: ['npm:chalk@5'],
        oak: ['https://deno.land/x/oak@v12.6.1/mod.ts'],
        signals: ['https://esm.sh/@preact/signals@1.2.0'],
        '~/': ['./src/'],
      },
      scripts: { dev: 'deno run --watch main.ts', check: 'deno check mod.ts' },
      entryPoints: ['mod.ts', 'cli.ts'],
      workspaces: ['./packages/a', './packages/b'],
      errors: [],
    });
  });
});

describe('composer', () => {
  const text = `{
    "name": "acme/shop",
    "require": { "php": "^8.2", "laravel/framework": "^11.0", "ext-json": "*" },
    "require-dev": { "phpunit/phpunit": "^11.0" },
    "autoload": { "psr-4": { "App\\\\": "app/", "Database\\\\Factories\\\\": ["database/factories/"] } },
    "autoload-dev": { "psr-4": { "Tests\\\\": "tests/" } },
    "scripts": { "test": "phpunit", "post-install-cmd": ["@php artisan key:generate", "@php artisan migrate"] },
    "bin": ["bin/shop"]
  }`;
  it('reads require, require-dev, scripts, bin and PSR namespaces as paths', () => {
    expect(read('composer.json', text)).toEqual({
      path: 'composer.json',
      kind: 'composer',
      name: 'acme/shop',
      version: null,
      dependencies: [
        dep('php', '^8.2'),
        dep('laravel/framework', '^11.0'),
        dep('ext-json', '*'),
        dep('phpunit/phpunit', '^11.0', 'dev'),
      ],
      scripts: { test: 'phpunit', 'post-install-cmd': '@php artisan key:generate && @php artisan migrate' },
      entryPoints: ['bin/shop'],
      paths: { 'App\\': ['app/'], 'Database\\Factories\\': ['database/factories/'], 'Tests\\': ['tests/'] },
      errors: [],
    });
  });
});

describe('never throws', () => {
  const paths = [
    'package.json',
    'tsconfig.json',
    'deno.jsonc',
    'Cargo.toml',
    'go.mod',
    'pyproject.toml',
    'requirements.txt',
    'setup.cfg',
    'composer.json',
    'Gemfile',
    'pom.xml',
    'build.gradle',
  ];
  // fragments of every format's syntax, so random text reaches past the first character
  const fragment = fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    '[[',
    ']]',
    '"',
    "'",
    '"""',
    "'''",
    ',',
    '=',
    ':',
    '.',
    '#',
    '//',
    '/*',
    '*/',
    '\n',
    ' ',
    '\\',
    '<',
    '>',
    '</',
    '<project>',
    '<dependency>',
    'require (',
    ')',
    'gem ',
    'group :test do',
    'end',
    'implementation ',
    '"a:b:1"',
    'name',
    '"dependencies"',
    'dependencies',
    '[dependencies]',
    'x = ',
    '1',
    'true',
    '${a}',
    '__proto__',
    'constructor',
    '-r',
    '@',
    '; ',
    '==',
    '\u2028',
    '\uFEFF',
  );
  const text = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.array(fragment, { maxLength: 80 }).map((parts) => parts.join('')),
  );
  it.each(paths)('%s', (path) => {
    fc.assert(
      fc.property(text, (t) => {
        const m = parseManifest(path, t);
        expect(m?.kind).toBe(manifestKindOf(path));
        expect(Array.isArray(m?.errors)).toBe(true);
        expect(m?.errors.filter((e) => e.startsWith('could not read the manifest'))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
