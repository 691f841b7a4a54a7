import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../analyze/manifests';
import { keyFiles, resolveEntry, workflowSummary } from './key-files';

type F = { path: string; text?: string };
const withManifests = (files: F[]) =>
  files.flatMap((f) => {
    const manifest = f.text === undefined ? null : parseManifest(f.path, f.text);
    return manifest ? [{ path: f.path, manifest }] : [];
  });
const roles = (files: F[], max?: number) =>
  keyFiles(files, withManifests(files), { max }).map((k) => [k.path, k.role]);

describe('keyFiles: an npm package', () => {
  const pkg = JSON.stringify({
    name: 'tool',
    version: '1.2.0',
    main: './dist/index.js',
    types: './dist/index.d.ts',
    bin: { tool: './dist/cli.js' },
    exports: { '.': { import: './dist/index.js' }, './package.json': './package.json' },
    scripts: { build: 'tsc', test: 'vitest' },
    dependencies: { a: '1', b: '2' },
    devDependencies: { vitest: '4' },
  });
  const files: F[] = [
    { path: 'package.json', text: pkg },
    {
      path: 'README.md',
      text: '<p align="center"><img src="logo.png"></p>\n\n# Tool\n\n[![ci](badge.svg)](x)\n\nA tool that does things. It also does more.\n',
    },
    { path: 'LICENSE', text: '\nMIT License\n\nCopyright (c) 2024 someone\n' },
    {
      path: 'src/index.ts',
      text: '/**\n * The library: parses the CLI flags and starts the server.\n * More text.\n */\n\nexport const x = 1;\n',
    },
    {
      path: 'src/cli.ts',
      text: '#!/usr/bin/env node\n// Copyright 2024 Someone. MIT license.\n\n// The command line: reads argv and runs.\nimport { x } from "./index";\n',
    },
    { path: 'src/util.ts', text: 'export const y = 2;\n' },
    { path: 'src/util.test.ts', text: 'import { it } from "vitest";\n' },
    { path: 'src/index.test.ts', text: '' },
    { path: 'test/e2e/flow.spec.ts', text: '' },
    { path: 'test/fixtures/repo/package.json', text: '{"name":"fixture"}' },
    { path: 'tsconfig.json', text: '{"compilerOptions":{"paths":{"@/*":["src/*"]}}}' },
    { path: 'vitest.config.ts', text: "import { defineConfig } from 'vitest/config';\n" },
    { path: 'eslint.config.js', text: '// ESLint flat config. Run by npm run lint.\nexport default [];\n' },
    {
      path: '.github/workflows/ci.yml',
      text: 'name: CI\non:\n  push:\n    branches: [main]\n  pull_request:\njobs:\n  test:\n    runs-on: ubuntu-latest\n',
    },
    { path: 'node_modules/x/package.json', text: '{"name":"x"}' },
    { path: 'Dockerfile' },
  ];

  it('finds each key file with its role and doc comment, in report order', () => {
    expect(roles(files)).toEqual([
      ['README.md', 'README — Tool: A tool that does things.'],
      ['package.json', 'npm manifest: tool 1.2.0, 3 dependencies, 2 scripts'],
      [
        'src/index.ts',
        'entry point (package.json main) — The library: parses the CLI flags and starts the server.',
      ],
      ['src/cli.ts', 'entry point (package.json bin) — The command line: reads argv and runs.'],
      ['Dockerfile', 'Dockerfile'],
      ['eslint.config.js', 'ESLint config — ESLint flat config.'],
      ['tsconfig.json', 'TypeScript config: 1 path alias'],
      ['.github/workflows/ci.yml', 'CI workflow (GitHub Actions) — CI (on push, pull_request)'],
      ['vitest.config.ts', 'test config (Vitest)'],
      ['src/', 'tests: 2 test files next to the source (*.test.ts)'],
      ['test/', 'tests: 1 test file (*.spec.ts)'],
      ['LICENSE', 'license — MIT License'],
    ]);
  });

  it('sets source to the convention or field that gave the role', () => {
    const sources = Object.fromEntries(keyFiles(files, withManifests(files)).map((k) => [k.path, k.source]));
    expect(sources['src/index.ts']).toBe('package.json main');
    expect(sources['src/cli.ts']).toBe('package.json bin');
    expect(sources['README.md']).toBe('file name');
    expect(sources['.github/workflows/ci.yml']).toBe('file path');
    expect(sources['src/']).toBe('test file naming');
    expect(sources['test/']).toBe('test folder');
  });

  it('reads manifests in the list even when none are given, and skips node_modules and fixtures', () => {
    const paths = keyFiles(files, []).map((k) => k.path);
    expect(paths).toContain('package.json');
    expect(paths).not.toContain('node_modules/x/package.json');
    expect(paths).not.toContain('test/fixtures/repo/package.json');
  });
});

describe('keyFiles: other ecosystems', () => {
  it('a Go module: go.mod, package docs, cmd/*/main.go and _test.go files', () => {
    const files: F[] = [
      {
        path: 'go.mod',
        text: 'module example.com/srv\n\ngo 1.22\n\nrequire (\n\tgithub.com/a/b v1.0.0\n)\n',
      },
      { path: 'main.go', text: '// Command srv serves the API.\npackage main\n\nfunc main() {}\n' },
      {
        path: 'cmd/migrate/main.go',
        text: '//go:build linux\n\n// Migrate applies the schema migrations. It is idempotent.\npackage main\n',
      },
      { path: 'internal/store/store.go', text: '// Package store keeps the records.\npackage store\n' },
      { path: 'internal/store/store_test.go', text: 'package store\n' },
      { path: 'internal/api/api_test.go', text: 'package api\n' },
      { path: 'Makefile', text: 'all:\n\tgo build\n' },
    ];
    expect(roles(files)).toEqual([
      ['go.mod', 'Go module: example.com/srv, 1 dependency'],
      ['main.go', 'entry point (Go main package) — Command srv serves the API.'],
      ['cmd/migrate/main.go', 'command migrate (Go cmd/migrate) — Migrate applies the schema migrations.'],
      ['Makefile', 'Makefile'],
      ['internal/', 'tests: 2 test files next to the source (*_test.go)'],
    ]);
  });

  it('a Python package: pyproject, module docstrings, __main__.py, tests/ with test_*.py', () => {
    const files: F[] = [
      {
        path: 'pyproject.toml',
        text: '[project]\nname = "pkg"\nversion = "0.3.0"\ndependencies = ["requests>=2"]\n',
      },
      { path: 'README.rst', text: 'Pkg\n===\n\nPkg fetches feeds, e.g. RSS. And more.\n' },
      { path: 'pkg/__init__.py', text: '' },
      {
        path: 'pkg/__main__.py',
        text: '#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n"""Run the fetcher from the command line.\n\nUsage: python -m pkg\n"""\nimport sys\n',
      },
      { path: 'tests/test_fetch.py', text: 'def test_x():\n    pass\n' },
      { path: 'tests/test_parse.py', text: '' },
      { path: 'tests/conftest.py', text: '"""Shared fixtures."""' },
      { path: 'tox.ini', text: '[tox]\n' },
    ];
    expect(roles(files)).toEqual([
      ['README.rst', 'README — Pkg: Pkg fetches feeds, e.g. RSS.'],
      ['pyproject.toml', 'Python project: pkg 0.3.0, 1 dependency'],
      ['pkg/__main__.py', 'entry point (python -m) — Run the fetcher from the command line.'],
      ['tox.ini', 'test config (tox)'],
      ['tests/conftest.py', 'test config (pytest) — Shared fixtures.'],
      ['tests/', 'tests: 2 test files (test_*.py)'],
    ]);
  });

  it('a Rust crate: Cargo.toml, //! docs of src/lib.rs and src/main.rs, tests/ dir', () => {
    const files: F[] = [
      {
        path: 'Cargo.toml',
        text: '[package]\nname = "cr"\nversion = "0.1.0"\n\n[dependencies]\nserde = "1"\n',
      },
      {
        path: 'src/lib.rs',
        text: '// SPDX-License-Identifier: MIT\n\n//! Fast parsing of things.\n//! Second line.\n\n#![deny(missing_docs)]\n',
      },
      { path: 'src/main.rs', text: '#![allow(dead_code)]\n/*! The binary. */\nfn main() {}\n' },
      { path: 'src/bin/tool.rs', text: 'fn main() {}\n' },
      { path: 'tests/integration.rs', text: '#[test]\nfn t() {}\n' },
    ];
    expect(roles(files)).toEqual([
      ['Cargo.toml', 'Cargo manifest: cr 0.1.0, 1 dependency'],
      ['src/lib.rs', 'library root (Rust crate) — Fast parsing of things.'],
      ['src/main.rs', 'entry point (Rust binary crate root) — The binary.'],
      ['src/bin/tool.rs', 'binary tool (Rust src/bin)'],
      ['tests/', 'tests: 1 test file'],
    ]);
  });

  it('a C project: main.c with its leading comment (a license block passed over), Makefile, CMake', () => {
    const files: F[] = [
      {
        path: 'src/main.c',
        text: '/*\n * Copyright (c) 2020 X\n * All rights reserved.\n */\n\n/* A tiny HTTP server. Single-threaded. */\n#include <stdio.h>\nint main(void) { return 0; }\n',
      },
      { path: 'src/util.c', text: '' },
      { path: 'CMakeLists.txt', text: 'project(x)\n' },
      { path: 'Makefile' },
      { path: 'tests/util_test.c', text: '' },
    ];
    expect(roles(files)).toEqual([
      ['src/main.c', 'entry point (C main) — A tiny HTTP server.'],
      ['CMakeLists.txt', 'CMake build'],
      ['Makefile', 'Makefile'],
      ['tests/', 'tests: 1 test file (*_test.c)'],
    ]);
  });

  it('Java and C#: a class with main, Program.cs; a class without main is no entry point', () => {
    const files: F[] = [
      {
        path: 'src/main/java/app/DemoApplication.java',
        text: 'package app;\n/** Boots Spring. */\npublic class DemoApplication { public static void main(String[] a) {} }\n',
      },
      { path: 'src/main/java/app/OtherApplication.java', text: 'public class OtherApplication {}\n' },
      { path: 'src/main/java/app/NoTextApplication.java' },
      { path: 'Tool/Program.cs', text: '// The entry point of the tool.\nclass Program {}\n' },
    ];
    expect(roles(files)).toEqual([
      ['Tool/Program.cs', 'entry point (C# Program) — The entry point of the tool.'],
      ['src/main/java/app/DemoApplication.java', 'entry point (Java main class)'],
    ]);
  });
});

describe('keyFiles: order, dedupe and cap', () => {
  it('a monorepo: the root README first, each category gets a share before the cap', () => {
    const files: F[] = [{ path: 'README.md', text: '# Mono\n' }];
    for (let i = 0; i < 30; i++)
      files.push(
        { path: `packages/p${i}/README.md`, text: `# P${i}\n` },
        { path: `packages/p${i}/package.json`, text: `{"name":"p${i}"}` },
      );
    files.push(
      { path: 'packages/p0/src/index.ts', text: '' },
      { path: '.github/workflows/a.yml', text: 'name: A\n' },
    );
    const out = keyFiles(files, [], { max: 10 });
    expect(out).toHaveLength(10);
    expect(out[0]).toMatchObject({ path: 'README.md', role: 'README — Mono' });
    const counts = new Map<string, number>();
    for (const k of out) {
      const kind = k.path.endsWith('README.md')
        ? 'readme'
        : k.path.endsWith('package.json')
          ? 'manifest'
          : k.path.endsWith('.ts')
            ? 'entry'
            : 'ci';
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    expect(counts.get('entry')).toBe(1);
    expect(counts.get('ci')).toBe(1);
    expect(out.map((k) => k.path).indexOf('packages/p0/src/index.ts')).toBeGreaterThan(
      out.map((k) => k.path).indexOf('packages/p0/package.json'),
    );
    expect(keyFiles(files, [], { max: 0 })).toEqual([]);
  });

  it('a path is listed once, by its first category (a manifest is not also its own entry point)', () => {
    const files: F[] = [
      {
        path: 'package.json',
        text: '{"name":"a","main":"index.js","exports":{"./package.json":"./package.json",".":"./index.js"}}',
      },
      { path: 'index.js', text: '' },
    ];
    const out = keyFiles(files, []);
    expect(out.map((k) => k.path)).toEqual(['package.json', 'index.js']);
    expect(out[1].role).toBe('entry point (package.json main)');
  });

  it('a deno.jsonc with block comments and trailing commas still names the field of its entry point', () => {
    const files: F[] = [
      {
        path: 'deno.jsonc',
        text: '{\n  /* the module */\n  "name": "@a/b",\n  "exports": "./mod.ts", // main\n}\n',
      },
      { path: 'mod.ts', text: '' },
    ];
    expect(keyFiles(files, withManifests(files))[1]).toMatchObject({
      path: 'mod.ts',
      role: 'entry point (deno.jsonc exports)',
    });
  });

  it('a manifest given without its text in the list: its text may come with it; without text the field is not named', () => {
    const text = '{"name":"a","bin":{"a":"./dist/cli.js"}}';
    const manifest = parseManifest('package.json', text)!;
    const files: F[] = [{ path: 'src/cli.ts', text: '// The CLI.\nimport x from "y";\n' }];
    expect(keyFiles(files, [{ path: 'package.json', manifest, text }])[1]).toEqual({
      path: 'src/cli.ts',
      role: 'entry point (package.json bin) — The CLI.',
      source: 'package.json bin',
    });
    expect(keyFiles(files, [{ path: 'package.json', manifest }])[1]).toEqual({
      path: 'src/cli.ts',
      role: 'entry point (package.json) — The CLI.',
      source: 'package.json',
    });
  });

  it('never throws on odd input', () => {
    const odd = [
      null,
      { path: 42 },
      { path: '' },
      { path: '../x' },
      { path: 'a\\b\\README.md', text: 123 },
      { path: 'package.json', text: '{' },
    ] as unknown as F[];
    expect(() => keyFiles(odd, [{ path: 'x', manifest: null }] as never)).not.toThrow();
    fc.assert(
      fc.property(
        fc.array(fc.record({ path: fc.string(), text: fc.option(fc.string(), { nil: undefined }) })),
        (list) => {
          const out = keyFiles(list, []);
          expect(new Set(out.map((k) => k.path)).size).toBe(out.length);
        },
      ),
    );
  });
});

describe('resolveEntry', () => {
  const files = new Set([
    'pkg/src/index.ts',
    'pkg/src/cli.tsx',
    'pkg/bin/run.mjs',
    'pkg/lib/index.js',
    'other/src/main.ts',
  ]);
  it('finds the listed file, else its source under src/', () => {
    expect(resolveEntry('pkg', './dist/index.js', files)).toBe('pkg/src/index.ts');
    expect(resolveEntry('pkg', 'dist/esm/index.mjs', files)).toBe('pkg/src/index.ts');
    expect(resolveEntry('pkg', './dist/index.d.ts', files)).toBe('pkg/src/index.ts');
    expect(resolveEntry('pkg', 'dist/cli.js', files)).toBe('pkg/src/cli.tsx');
    expect(resolveEntry('pkg', 'bin/run.mjs', files)).toBe('pkg/bin/run.mjs');
    expect(resolveEntry('pkg', 'lib', files)).toBe('pkg/lib/index.js');
    expect(resolveEntry('pkg', 'lib/index.js', files)).toBe('pkg/lib/index.js');
    expect(resolveEntry('pkg', './src/*.js', files)).toBeNull();
    expect(resolveEntry('pkg', '../other/src/main.ts', files)).toBe('other/src/main.ts');
    expect(resolveEntry('', '../x.js', files)).toBeNull();
    expect(resolveEntry('pkg', 'https://x/y.js', files)).toBeNull();
  });
});

describe('workflowSummary', () => {
  it('reads the name and the triggers, inline or as keys', () => {
    expect(workflowSummary('name: "Build & test"\non: [push, pull_request]\n')).toBe(
      'Build & test (on push, pull_request)',
    );
    expect(workflowSummary('on: push\n')).toBe('on push');
    expect(
      workflowSummary(
        'name: Release\n"on":\n  workflow_dispatch:\n  schedule:\n    - cron: "0 0 * * *"\njobs: {}\n',
      ),
    ).toBe('Release (on workflow_dispatch, schedule)');
    expect(workflowSummary('jobs: {}\n')).toBeNull();
  });
});
