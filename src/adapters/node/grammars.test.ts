/**
 * nodeGrammarLoader: every grammar loads from node_modules and parses, and every package
 * tags.scm the chunker uses is there. With
 * QUARRY_CHUNK_BENCH=1 it also prints chunkFile throughput on large real files
 * (typescript.js, lib.dom.d.ts, CPython's stdlib when present) and a synthetic 1 MiB .tsx.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { Chunker, GRAMMAR_LANGUAGES } from '../../core/chunk/index';
import { nodeGrammarLoader } from './grammars';

const require = createRequire(import.meta.url);

describe('nodeGrammarLoader', () => {
  it('loads the runtime and every grammar as wasm bytes', async () => {
    const magic = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"
    expect([...(await nodeGrammarLoader.runtimeWasm()).subarray(0, 4)]).toEqual(magic);
    for (const lang of GRAMMAR_LANGUAGES)
      expect([...(await nodeGrammarLoader.grammarWasm(lang)).subarray(0, 4)]).toEqual(magic);
  });

  it("reads the packages' tags.scm for the languages that ship one", async () => {
    const withTags = [];
    for (const lang of GRAMMAR_LANGUAGES)
      if ((await nodeGrammarLoader.tagsQuery(lang)) !== null) withTags.push(lang);
    expect(withTags).toEqual(['c', 'cpp', 'java', 'csharp', 'ruby', 'php']);
    expect(await nodeGrammarLoader.tagsQuery('c')).toContain('@definition.function');
  });

  it('gives a Chunker that parses each language', { timeout: 60_000 }, async () => {
    const chunker = await Chunker.create(nodeGrammarLoader);
    const cases: [string, string, string][] = [
      ['a.ts', 'export function f() {}', 'f'],
      ['a.tsx', 'export const A = () => <b />;', 'A'],
      ['a.js', 'function g() {}', 'g'],
      ['a.py', 'def h():\n    pass\n', 'h'],
      ['a.go', 'package a\nfunc I() {}\n', 'I'],
      ['a.rs', 'fn j() {}\n', 'j'],
      ['a.md', '# K\n', 'K'],
      ['a.c', 'int l(void) { return 0; }\n', 'l'],
      ['a.cpp', 'namespace m {}\n', 'm'],
      ['A.java', 'class N {}\n', 'N'],
      ['a.cs', 'class O {}\n', 'O'],
      ['a.kt', 'fun p() {}\n', 'p'],
      ['a.swift', 'func q() {}\n', 'q'],
      ['a.rb', 'def r; end\n', 'r'],
      ['a.php', '<?php function s() {}\n', 's'],
      ['a.sh', 't() { :; }\n', 't'],
      ['a.css', '.u { }\n', '.u'],
      ['a.html', '<p id="v"></p>\n', '#v'],
    ];
    for (const [path, text, name] of cases)
      expect((await chunker.chunk(path, text)).map((c) => c.symbolName)).toEqual([name]);
    expect([...chunker.loadedLanguages].sort()).toEqual([...GRAMMAR_LANGUAGES].sort());
  });
});

describe.skipIf(!process.env.QUARRY_CHUNK_BENCH)('chunkFile throughput (QUARRY_CHUNK_BENCH=1)', () => {
  it('prints MB/s per file', { timeout: 600_000 }, async () => {
    const chunker = await Chunker.create(nodeGrammarLoader, { languages: ['typescript', 'tsx', 'python'] });
    const tsLib = (f: string) => require.resolve(`typescript/lib/${f}`);
    const py = '/root/.pyenv/versions/3.13.0/lib/python3.13';
    const component = readFileSync(
      new URL('../core/chunk/fixtures/component.tsx.txt', import.meta.url),
      'utf8',
    );
    const files: { label: string; path: string; text: string }[] = [];
    const add = (label: string, file: string, as = file) => {
      if (existsSync(file) && statSync(file).isFile())
        files.push({ label, path: as, text: readFileSync(file, 'utf8') });
    };
    add('typescript.js', tsLib('typescript.js'));
    add('typescript.js 1 MiB slice', tsLib('typescript.js'));
    if (files[1]) files[1].text = files[1].text.slice(0, 1 << 20);
    add('lib.dom.d.ts', tsLib('lib.dom.d.ts'));
    add('typescript.d.ts', tsLib('typescript.d.ts'));
    add('lib.dom.d.ts as .tsx', tsLib('lib.dom.d.ts'), 'lib.dom.d.tsx');
    files.push({
      label: 'synthetic components .tsx',
      path: 'big.tsx',
      text: component.repeat(Math.ceil((1 << 20) / component.length)),
    });
    add('_pydecimal.py', `${py}/_pydecimal.py`);
    add('pydoc.py', `${py}/pydoc.py`);
    add('typing_extensions.py', `${py}/site-packages/pip/_vendor/typing_extensions.py`);
    add('test_statistics.py', `${py}/test/test_statistics.py`);
    add('uts46data.py (one huge list)', `${py}/site-packages/pip/_vendor/idna/uts46data.py`);
    for (const f of files) {
      chunker.chunkFile(f.path, f.text.slice(0, 4096)); // warm the parser
      // Best of a few runs: the CI box is shared, so a single run mostly measures the neighbours.
      const runs = f.text.length > 2e6 ? 1 : 3;
      let ms = Infinity;
      let chunks: unknown[] = [];
      for (let r = 0; r < runs; r++) {
        const t0 = performance.now();
        chunks = chunker.chunkFile(f.path, f.text);
        ms = Math.min(ms, performance.now() - t0);
      }
      const mb = f.text.length / 1e6;
      console.log(
        `${f.label.padEnd(32)} ${mb.toFixed(2).padStart(6)} MB  ${ms.toFixed(0).padStart(6)} ms  ${(mb / (ms / 1000)).toFixed(2).padStart(6)} MB/s  ${chunks.length} chunks`,
      );
      expect(Array.isArray(chunks)).toBe(true); // typescript.js is one IIFE: no module-level symbols
    }
  });
});
