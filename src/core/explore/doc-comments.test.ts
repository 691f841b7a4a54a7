import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { docSummary, firstSentence } from './doc-comments';

describe('docSummary', () => {
  it('JS/TS: a top-of-file JSDoc, a // block, past directives and license headers', () => {
    expect(
      docSummary(
        'a.ts',
        '/**\n * Reads the config. Then more.\n * @module config\n */\n\nimport x from "y";\n',
      ),
    ).toBe('Reads the config.');
    expect(
      docSummary(
        'a.ts',
        '// @ts-check\n/* eslint-disable */\n// Routes the requests to handlers.\n// Second line of the same sentence? no.\n\nexport {};\n',
      ),
    ).toBe('Routes the requests to handlers.');
    expect(
      docSummary(
        'a.js',
        '"use strict";\n/* Copyright 2020 A. Licensed under MIT. */\n/** Small helpers for dates. */\n\nmodule.exports = {};\n',
      ),
    ).toBe('Small helpers for dates.');
    expect(docSummary('a.mjs', '#!/usr/bin/env node\n/** The CLI. */\nimport "./x.js";\n')).toBe('The CLI.');
    expect(
      docSummary(
        'a.tsx',
        '/// <reference types="vite/client" />\n// The app shell\nimport React from "react";\n',
      ),
    ).toBe('The app shell');
  });

  it('JS/TS: a doc comment that documents the declaration right under it is not the file’s', () => {
    expect(
      docSummary('a.ts', '/** Adds two numbers. */\nexport function add(a: number, b: number) {}\n'),
    ).toBeNull();
    expect(
      docSummary(
        'a.ts',
        '/**\n * @fileoverview Math helpers. Nothing else.\n */\nexport function add() {}\n',
      ),
    ).toBe('Math helpers.');
    expect(docSummary('a.ts', 'import x from "y";\n/** Late comment. */\n')).toBeNull();
    expect(docSummary('a.ts', '/* unterminated\n * comment')).toBeNull();
  });

  it('Python: the module docstring, after comments; single quotes and one-liners', () => {
    expect(
      docSummary(
        'm.py',
        '#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n"""\nParse the feeds.\n\nDetails.\n"""\n',
      ),
    ).toBe('Parse the feeds.');
    expect(docSummary('m.py', "r'''Raw docstring here. More.'''\n")).toBe('Raw docstring here.');
    expect(docSummary('m.py', '"one line"\n')).toBe('one line');
    expect(docSummary('m.py', 'import os\n"""not a docstring"""\n')).toBeNull();
  });

  it('Go: the comment right above the package clause', () => {
    expect(
      docSummary(
        'a.go',
        '// Copyright 2020 The Authors.\n\n// Package cache keeps results in memory. It is safe for concurrent use.\npackage cache\n',
      ),
    ).toBe('Package cache keeps results in memory.');
    expect(
      docSummary('a.go', '/*\nPackage big implements arbitrary-precision arithmetic.\n*/\npackage big\n'),
    ).toBe('Package big implements arbitrary-precision arithmetic.');
    expect(
      docSummary('a.go', '// Copyright 2020 The Authors. All rights reserved.\n\npackage cache\n'),
    ).toBeNull();
    expect(
      docSummary('a.go', '// Copyright 2020 The Authors. All rights reserved.\npackage cache\n'),
    ).toBeNull();
  });

  it('Rust: //! lines and /*! */ blocks, past attributes and license lines', () => {
    expect(docSummary('lib.rs', '// Licensed under MIT\n#![no_std]\n//! A `no_std` allocator.\n')).toBe(
      'A `no_std` allocator.',
    );
    expect(docSummary('lib.rs', '/// Item doc, not the module.\nfn x() {}\n')).toBeNull();
  });

  it('C, C++, Java: the leading non-license block comment or // block', () => {
    expect(
      docSummary(
        'x.c',
        '/* SPDX-License-Identifier: GPL-2.0 */\n// Ring buffer for the driver.\n#include "x.h"\n',
      ),
    ).toBe('Ring buffer for the driver.');
    expect(docSummary('x.hpp', '#pragma once\n// late\n')).toBeNull();
    expect(docSummary('X.java', '/**\n * Entry class of the app.\n */\npublic class X {}\n')).toBe(
      'Entry class of the app.',
    );
  });

  it('Ruby and shell: the # block after the shebang', () => {
    expect(docSummary('x.sh', '#!/bin/sh\n# Installs the toolchain. Run as root.\nset -e\n')).toBe(
      'Installs the toolchain.',
    );
    expect(docSummary('x.rb', '# frozen_string_literal: true\n\n# Billing models.\nclass X; end\n')).toBe(
      'Billing models.',
    );
  });

  it('README: heading and the first sentence of the first paragraph, past badges, HTML and front matter', () => {
    expect(
      docSummary(
        'README.md',
        '---\ntitle: x\n---\n# Quarry\n\n[![b](x)](y)\n\nExplore any **code** [repository](http://x). Fast.\n',
      ),
    ).toBe('Quarry: Explore any code repository.');
    expect(docSummary('readme.md', 'Just a paragraph line\nthat goes on.\n')).toBe(
      'Just a paragraph line that goes on.',
    );
    expect(docSummary('README.md', '# Title\n\n## Install\n\nnpm i\n')).toBe('Title');
    expect(docSummary('README.md', '# Title\n\n```sh\nnpm i x. y\n```\n\n- a list item.\n')).toBe('Title');
    expect(docSummary('README.md', '# ![logo](x.png)\n\nText here.\n')).toBe('Text here.');
    expect(docSummary('README', 'Title\n=====\n\nBody.\n')).toBe('Title: Body.');
  });

  it('unknown languages and empty text give null', () => {
    expect(docSummary('x.json', '{}')).toBeNull();
    expect(docSummary('x.ts', '')).toBeNull();
    expect(docSummary('x.ts', '/** */\n\n')).toBeNull();
  });

  it('never throws on random text', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('a.ts', 'a.py', 'a.go', 'a.rs', 'a.c', 'a.sh', 'README.md'),
        fc.string({ maxLength: 300 }),
        (path, text) => {
          const s = docSummary(path, text);
          if (s !== null) expect(s.length).toBeLessThanOrEqual(330);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('firstSentence', () => {
  it('ends at a sentence end, not at an abbreviation; caps the length', () => {
    expect(firstSentence(['Uses e.g. maps, i.e. dictionaries. Then more.'])).toBe(
      'Uses e.g. maps, i.e. dictionaries.',
    );
    expect(firstSentence(['Version 1.2 is out! Yes.'])).toBe('Version 1.2 is out!');
    expect(firstSentence(['', 'First para', 'continues.', '', 'Second.'])).toBe('First para continues.');
    expect(firstSentence(['See {@link Foo} and {@link Bar | the bar}.'])).toBe('See Foo and the bar.');
    const long = firstSentence(['x'.repeat(300)]);
    expect(long).toHaveLength(160);
    expect(long?.endsWith('…')).toBe(true);
    expect(firstSentence(['***', '---'])).toBeNull();
  });
});
