/** Vue/Svelte single-file components and HTML: their scripts and top-level sections. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EmbeddedScript, embeddedScripts, sfcKindForPath, sfcSections } from './sfc';
import type { Chunk } from './types';

const sections = (chunks: Chunk[]) => chunks.map((c) => [c.startLine, c.endLine, c.symbolName]);
const scripts = (list: EmbeddedScript[]) => list.map((s) => [s.language, s.startLine, s.text]);

/** Line N of a script's text is (part of) file line startLine+N-1: whole in the middle, a suffix first, a prefix last. */
function checkNumbering(file: string, list: EmbeddedScript[]): void {
  const fileLines = file.split('\n');
  for (const s of list) {
    const lines = s.text.split('\n');
    lines.forEach((line, k) => {
      const fileLine = fileLines[s.startLine - 1 + k];
      expect(fileLine, `line ${s.startLine + k}`).toBeDefined();
      if (k === 0 && k === lines.length - 1) expect(fileLine.includes(line)).toBe(true);
      else if (k === 0) expect(fileLine.endsWith(line)).toBe(true);
      else if (k === lines.length - 1) expect(fileLine.startsWith(line)).toBe(true);
      else expect(line).toBe(fileLine);
    });
  }
}

describe('sfcKindForPath', () => {
  it('by final extension, case-sensitive', () => {
    expect(sfcKindForPath('src/App.vue')).toBe('vue');
    expect(sfcKindForPath('src/routes/+page.svelte')).toBe('svelte');
    expect(sfcKindForPath('public/index.html')).toBe('html');
    expect(sfcKindForPath('old/page.htm')).toBe('html');
    for (const p of ['a.VUE', 'a.vue.bak', 'a.ts', 'vue', 'a.xhtml']) expect(sfcKindForPath(p), p).toBeNull();
  });
});

const VUE = [
  '<!-- <script>not this</script> -->',
  '<template>',
  '  <div title="<script> and </template> in a value">',
  '    <template v-if="ok">{{ "<template>" }}</template>',
  '    <p>{{ a<b }}</p>',
  '  </div>',
  '</template>',
  '',
  '<script setup lang="ts">',
  'import { ref } from "vue";',
  'const html = "<script>";',
  'const count = ref(0);',
  '</script>',
  '',
  '<script>',
  'export default { name: "Counter" };',
  '</script>',
  '',
  '<style lang="scss" scoped>',
  '.a { content: "</style"; }',
  '</style>',
  '<i18n>{ "en": { "hi": "<template>" } }</i18n>',
  '',
].join('\n');

describe('Vue', () => {
  it('a section per top-level block, named with setup/scoped; comments and values do not confuse it', () => {
    expect(sfcSections('App.vue', VUE)).toEqual([
      { path: 'App.vue', startLine: 2, endLine: 7, symbolName: 'template', chunkType: 'section' },
      { path: 'App.vue', startLine: 9, endLine: 13, symbolName: 'script setup', chunkType: 'section' },
      { path: 'App.vue', startLine: 15, endLine: 17, symbolName: 'script', chunkType: 'section' },
      { path: 'App.vue', startLine: 19, endLine: 21, symbolName: 'style scoped', chunkType: 'section' }, // `</style"` is no end tag, as in HTML
      { path: 'App.vue', startLine: 22, endLine: 22, symbolName: 'i18n', chunkType: 'section' },
    ]);
  });

  it('each top-level script with its language and line numbering', () => {
    const list = embeddedScripts('App.vue', VUE);
    expect(scripts(list)).toEqual([
      ['typescript', 10, 'import { ref } from "vue";\nconst html = "<script>";\nconst count = ref(0);\n'],
      ['javascript', 16, 'export default { name: "Counter" };\n'],
    ]);
    checkNumbering(VUE, list);
  });

  it('lang tsx, src and other langs; a template with a lang is raw text', () => {
    const text = [
      '<template lang="pug">',
      'div(title="</script>")',
      '</template>',
      '<script lang="tsx">const A = () => <div />;</script>',
      '<script src="./x.ts"></script>',
      '<script lang="coffee">x = 1</script>',
    ].join('\n');
    expect(sections(sfcSections('A.vue', text))).toEqual([
      [1, 3, 'template'],
      [4, 4, 'script'],
      [5, 5, 'script'],
      [6, 6, 'script'],
    ]);
    expect(scripts(embeddedScripts('A.vue', text))).toEqual([['tsx', 4, 'const A = () => <div />;']]);
  });

  it('unterminated blocks run to the end; CRLF and a BOM keep the numbering', () => {
    const text = '\uFEFF<template>\r\n  <div/>\r\n</template>\r\n<script>\r\nlet a = 1;\r\nlet b = 2;\r\n';
    expect(sections(sfcSections('A.vue', text))).toEqual([
      [1, 3, 'template'],
      [4, 6, 'script'],
    ]);
    const list = embeddedScripts('A.vue', text);
    expect(scripts(list)).toEqual([['javascript', 5, 'let a = 1;\r\nlet b = 2;\r\n']]);
    checkNumbering(text, list);
    expect(sections(sfcSections('B.vue', '<template>\n<template>\n</template>\n'))).toEqual([
      [1, 3, 'template'],
    ]);
  });
});

const SVELTE = [
  '<script context="module" lang="ts">',
  '  export const prerender = true;',
  '</script>',
  '',
  '<script lang="ts">',
  '  let { items } = $props();',
  '</script>',
  '',
  '<svelte:head>',
  '  <script type="application/ld+json">{"@type": "Thing"}</script>',
  '  <script>window.analytics = [];</script>',
  '</svelte:head>',
  '{#if items.length < 3}',
  '  <p title={"<script>"}>{"<style>"}</p>',
  '{/if}',
  '<input value={a > b} {...rest} />',
  '',
  '<style>',
  '  p { color: red; }',
  '</style>',
  '<!-- trailing -->',
].join('\n');

describe('Svelte', () => {
  it('module and instance scripts, style, and the markup between them; nested scripts are markup', () => {
    expect(sections(sfcSections('Page.svelte', SVELTE))).toEqual([
      [1, 3, 'script context="module"'],
      [5, 7, 'script'],
      [9, 16, 'markup'],
      [18, 20, 'style'],
      [21, 21, 'markup'],
    ]);
  });

  it('every JS script, the one in svelte:head too; JSON-LD is not JS', () => {
    const list = embeddedScripts('Page.svelte', SVELTE);
    expect(scripts(list)).toEqual([
      ['typescript', 2, '  export const prerender = true;\n'],
      ['typescript', 6, '  let { items } = $props();\n'],
      ['javascript', 11, 'window.analytics = [];'],
    ]);
    checkNumbering(SVELTE, list);
  });

  it('Svelte 5 `<script module>` is named so', () => {
    expect(
      sections(sfcSections('A.svelte', '<script module>\nexport const x = 1;\n</script>\n<h1>hi</h1>\n')),
    ).toEqual([
      [1, 3, 'script module'],
      [4, 4, 'markup'],
    ]);
  });
});

describe('HTML', () => {
  const HTML = [
    '<!doctype html>',
    '<html><head>',
    '<!-- <script>commented()</script>',
    '-->',
    '<script type="importmap">{"imports": {}}</script>',
    '<script src="/app.js"></script>',
    '<script type="text/template"><div>{{x}}</div></script>',
    '<script type="module">',
    '  import { start } from "./app.js";',
    '  start();',
    '</script>',
    '<textarea><script>no()</script></textarea>',
    '</head><body onload="x < 1">',
    '<script>',
    '  const s = "</scr" + "ipt>";',
    '</script>',
    '<SCRIPT TYPE="text/javascript">upper()</SCRIPT>',
    '<script>  </script>',
    '</body></html>',
  ].join('\n');

  it('every inline JS script, and no sections', () => {
    const list = embeddedScripts('index.html', HTML);
    expect(scripts(list)).toEqual([
      ['javascript', 9, '  import { start } from "./app.js";\n  start();\n'],
      ['javascript', 15, '  const s = "</scr" + "ipt>";\n'],
      ['javascript', 17, 'upper()'],
    ]);
    checkNumbering(HTML, list);
    expect(sfcSections('index.html', HTML)).toEqual([]);
  });

  it('a "</script>" in JS ends the script, as in a browser; an unterminated comment hides the rest', () => {
    expect(scripts(embeddedScripts('a.html', '<script>\nconst s = "</script>";\n</script>'))).toEqual([
      ['javascript', 2, 'const s = "'],
    ]);
    expect(embeddedScripts('a.html', '<!-- open\n<script>x()</script>')).toEqual([]);
    expect(scripts(embeddedScripts('a.html', '<script>\nno_end();'))).toEqual([
      ['javascript', 2, 'no_end();'],
    ]);
  });
});

describe('odd input never throws', () => {
  it('binary-ish text, a huge line, unterminated tags and values', () => {
    let seed = 5;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const binary = Array.from({ length: 20_000 }, () => String.fromCharCode(Math.floor(rnd() * 256))).join(
      '',
    );
    const huge = `<template><div>${'<span>x</span>'.repeat(50_000)}</div></template><script>${'a();'.repeat(50_000)}</script>`;
    const deep = '<div>'.repeat(20_000) + '</span>'.repeat(20_000) + '<script>deep()</script>';
    const glued = '<x'.repeat(50_000) + '>'; // once a tag name of 100,000 characters
    for (const text of [
      binary,
      huge,
      deep,
      glued,
      '<',
      '<script',
      '<script type="',
      '<template',
      '<div {',
      '{',
      '<!--',
      '<!',
      '</',
      '<script/>',
      '',
    ]) {
      for (const path of ['x.vue', 'x.svelte', 'x.html']) {
        const list = embeddedScripts(path, text);
        checkNumbering(text, list);
        for (const c of sfcSections(path, text)) expect(c.endLine).toBeGreaterThanOrEqual(c.startLine);
      }
    }
    expect(scripts(embeddedScripts('x.vue', huge))).toEqual([['javascript', 1, 'a();'.repeat(50_000)]]);
  });

  it('property: scripts keep their numbering and sections are sorted, for any mix of tags', () => {
    const piece = fc.constantFrom(
      '<script>',
      '</script>',
      '<script lang="ts">',
      '<template>',
      '</template>',
      '<style scoped>',
      '</style>',
      '<!--',
      '-->',
      '"',
      "'",
      '{',
      '}',
      '{{',
      '}}',
      '<div a="',
      '>',
      '/>',
      '\n',
      '\r\n',
      'x',
      ' ',
      '<p>',
      '</p>',
    );
    fc.assert(
      fc.property(
        fc.constantFrom('a.vue', 'a.svelte', 'a.html'),
        fc.array(piece, { maxLength: 200 }),
        (path, parts) => {
          const text = parts.join('');
          checkNumbering(text, embeddedScripts(path, text));
          const chunks = sfcSections(path, text);
          for (let i = 1; i < chunks.length; i++)
            expect(chunks[i].startLine).toBeGreaterThanOrEqual(chunks[i - 1].startLine);
        },
      ),
      { numRuns: 500 },
    );
  });
});
