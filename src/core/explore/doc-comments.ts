/**
 * A file's own description, for explore's key files: the first sentence of its top-of-file
 * doc comment, read by each ecosystem's convention:
 *   JS/TS            a leading `/** … *\/` or `/* … *\/` or `//` block (not one that documents the declaration right under it)
 *   Python           the module docstring
 *   Go               the comment right above the `package` clause ("Package x …")
 *   Rust             the leading `//!` lines or `/*! … *\/` block
 *   C, C++, Java, C#, Kotlin, Swift, PHP   a leading `/* … *\/` or `//` block
 *   Ruby, shell      a leading `#` block after the shebang
 *   README           its first heading, and the first sentence of its first paragraph
 * License headers, tool directives (`// @ts-check`, `/* eslint-disable *\/`, `//go:build`) and
 * empty comments are passed over. Only the first lines of a file are read.
 */
import { baseName, langOf } from './conventions';

const HEAD_LINES = 200;
const MAX_SENTENCE = 160;

/** The first sentence of the file's top-of-file documentation, or null. */
export function docSummary(path: string, text: string): string | null {
  if (typeof text !== 'string' || text === '') return null;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/, HEAD_LINES);
  if (/^readme(\.(md|markdown|mdx|rst|txt))?$/i.test(baseName(path))) return readmeSummary(lines);
  switch (langOf(path)) {
    case 'ts':
    case 'js':
      return leadingComment(lines, { skipDeclarationDocs: true });
    case 'python':
      return pythonDocstring(lines);
    case 'go':
      return goPackageDoc(lines);
    case 'rust':
      return rustInnerDoc(lines);
    case 'c':
    case 'cpp':
    case 'java':
    case 'kotlin':
    case 'csharp':
    case 'swift':
    case 'php':
      return leadingComment(lines, { skipDeclarationDocs: false });
    case 'ruby':
    case 'shell':
      return hashComment(lines);
    default:
      return null;
  }
}

/** Comments that say nothing about what the file is for. */
function isBoilerplate(body: string): boolean {
  return (
    body.trim() === '' ||
    /copyright|\(c\)\s*\d{4}|©|spdx-license|@license|all rights reserved|licensed under|permission is hereby granted|license(?:d)? (?:to|under)/i.test(
      body,
    ) ||
    /^\s*(?:@ts-(?:check|nocheck|ignore|expect-error)|@flow|eslint(?:-[a-z-]+)?(?:\s|$)|prettier-ignore|istanbul |jshint |jscs:|globals? |c8 |biome-ignore|#region|#endregion|<reference|go:build|\+build|nolint)/.test(
      body,
    ) ||
    /^\s*(?:@generated|auto-?generated|code generated|this file (?:is|was) (?:auto-?)?generated)/i.test(
      body,
    ) ||
    /^\s*-\*-.*-\*-\s*$/.test(body) // an editor mode line
  );
}

interface Comment {
  body: string[];
  /** The index of the comment's last line. */
  end: number;
}

/** A `/* … *\/` block starting at line i (which starts with `/*`), or a run of `//` lines. */
function commentAt(lines: string[], i: number): Comment | null {
  const first = lines[i].trim();
  if (first.startsWith('/*')) {
    const body: string[] = [];
    for (let j = i; j < lines.length; j++) {
      let line = lines[j].trim();
      if (j === i) line = line.replace(/^\/\*+!?/, '');
      const close = line.indexOf('*/');
      if (close >= 0) {
        body.push(line.slice(0, close));
        if (line.slice(close + 2).trim() !== '') return null; // code after the comment on its line
        return { body: body.map(stripStar), end: j };
      }
      body.push(line);
    }
    return null; // unterminated in the lines read
  }
  if (!first.startsWith('//')) return null;
  const body: string[] = [];
  let j = i;
  for (; j < lines.length && lines[j].trim().startsWith('//'); j++)
    body.push(lines[j].trim().replace(/^\/\/+!?\s?/, ''));
  return { body, end: j - 1 };
}

const stripStar = (line: string) => line.replace(/^\s*\*(?!\/)\s?/, '');

/** Declarations a doc comment right above belongs to, rather than to the file. */
const DECLARATION =
  /^(?:export|default|function|class|const|let|var|async|interface|type|enum|abstract|declare|namespace|module\.exports|@\w)\b|^@/;

function leadingComment(lines: string[], options: { skipDeclarationDocs: boolean }): string | null {
  let i = 0;
  if (lines[0]?.startsWith('#!')) i = 1;
  if (lines[0]?.trim().startsWith('<?php')) i = 1;
  while (i < lines.length) {
    const trimmed = lines[i].trim();
    if (trimmed === '' || /^['"]use (strict|client|server)['"];?$/.test(trimmed)) {
      i++;
      continue;
    }
    if (trimmed.startsWith('///')) {
      i++; // triple-slash directives
      continue;
    }
    const comment = commentAt(lines, i);
    if (!comment) return null;
    const body = comment.body.join('\n');
    const jsdoc = trimmed.startsWith('/**');
    i = comment.end + 1;
    if (isBoilerplate(body)) continue;
    if (
      options.skipDeclarationDocs &&
      jsdoc &&
      !/@(file|fileoverview|overview|module|packageDocumentation)\b/.test(body)
    ) {
      const next = lines[i]?.trim() ?? '';
      if (DECLARATION.test(next)) return null;
    }
    return firstSentence(tagged(comment.body));
  }
  return null;
}

/** JSDoc text: `@file x` / `@fileoverview x` / `@module x` keep their text; other tags end the description. */
function tagged(body: string[]): string[] {
  const out: string[] = [];
  for (const line of body) {
    const tag = /^\s*@(file|fileoverview|overview|description|desc)\s+(.*)$/.exec(line);
    if (tag) out.push(tag[2]);
    else if (/^\s*@(module|packageDocumentation)\b\s*$/.test(line)) continue;
    else if (/^\s*@\w/.test(line)) break;
    else out.push(line);
  }
  return out;
}

function pythonDocstring(lines: string[]): string | null {
  for (let i = 0; i < lines.length; i++) {
    const trimmed = lines[i].trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const open = /^[rRuU]?("""|'''|"|')/.exec(trimmed);
    if (!open) return null;
    const quote = open[1];
    const rest = trimmed.slice(open[0].length);
    const close = rest.indexOf(quote);
    if (close >= 0) return firstSentence([rest.slice(0, close)]);
    if (quote.length === 1) return null;
    const body = [rest];
    for (let j = i + 1; j < lines.length; j++) {
      const at = lines[j].indexOf(quote);
      if (at >= 0) {
        body.push(lines[j].slice(0, at));
        return firstSentence(body);
      }
      body.push(lines[j]);
    }
    return firstSentence(body);
  }
  return null;
}

function goPackageDoc(lines: string[]): string | null {
  const clause = lines.findIndex((l) => /^package\s+\w+/.test(l));
  if (clause <= 0) return null;
  const above = lines[clause - 1].trim();
  if (above.endsWith('*/')) {
    let start = clause - 1;
    while (start > 0 && !lines[start].trim().startsWith('/*')) start--;
    const comment = commentAt(lines, start);
    return comment && !isBoilerplate(comment.body.join('\n')) ? firstSentence(comment.body) : null;
  }
  if (!above.startsWith('//')) return null;
  let start = clause - 1;
  while (start > 0 && lines[start - 1].trim().startsWith('//')) start--;
  const body = lines.slice(start, clause).map((l) => l.trim().replace(/^\/\/\s?/, ''));
  return isBoilerplate(body.join('\n')) ? null : firstSentence(body);
}

function rustInnerDoc(lines: string[]): string | null {
  for (let i = 0; i < lines.length; i++) {
    const trimmed = lines[i].trim();
    if (trimmed.startsWith('//!')) {
      const body: string[] = [];
      for (let j = i; j < lines.length && lines[j].trim().startsWith('//!'); j++)
        body.push(lines[j].trim().replace(/^\/\/!\s?/, ''));
      return firstSentence(body);
    }
    if (trimmed.startsWith('/*!')) {
      const comment = commentAt(lines, i);
      return comment ? firstSentence(comment.body) : null;
    }
    if (trimmed === '' || trimmed.startsWith('#![')) continue;
    if (trimmed.startsWith('//') && !trimmed.startsWith('///')) continue; // a license line
    if (trimmed.startsWith('/*') && !trimmed.startsWith('/**')) {
      const comment = commentAt(lines, i);
      if (!comment) return null;
      i = comment.end;
      continue;
    }
    return null;
  }
  return null;
}

function hashComment(lines: string[]): string | null {
  let i = lines[0]?.startsWith('#!') ? 1 : 0;
  while (i < lines.length) {
    const trimmed = lines[i].trim();
    if (trimmed === '' || /^#\s*(frozen_string_literal|encoding|-\*-|shellcheck|vim?:)/.test(trimmed)) {
      i++;
      continue;
    }
    if (!trimmed.startsWith('#')) return null;
    const body: string[] = [];
    for (; i < lines.length && lines[i].trim().startsWith('#'); i++)
      body.push(lines[i].trim().replace(/^#+\s?/, ''));
    if (!isBoilerplate(body.join('\n'))) return firstSentence(body);
  }
  return null;
}

/** A README's first heading and the first sentence of its first paragraph ("Quarry: Explore any repository."). */
export function readmeSummary(lines: string[]): string | null {
  let heading: string | null = null;
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.indexOf('---', 1);
    i = end > 0 ? end + 1 : 0;
  }
  let fence = false;
  for (; i < lines.length; i++) {
    const trimmed = lines[i].trim();
    if (/^(```|~~~)/.test(trimmed)) fence = !fence;
    if (
      fence ||
      /^(```|~~~)/.test(trimmed) ||
      trimmed === '' ||
      /^(<|!\[|\[!\[|\[[^\]]*\]:|\.\. |:\w+:|[-=~*_#^"`+]{3,}$|\|)/.test(trimmed)
    )
      continue;
    const atx = /^#{1,6}\s+(.*?)\s*#*$/.exec(trimmed);
    const underline = lines[i + 1]?.trim() ?? '';
    const setext = /^(={3,}|-{3,}|~{3,}|\^{3,}|\*{3,}|#{3,})$/.test(underline);
    if (atx || setext) {
      if (heading !== null) break; // a second heading before any paragraph
      const text = inlineText(atx ? atx[1] : trimmed);
      if (text !== '') heading = text;
      if (setext) i++;
      continue;
    }
    if (/^([-*+]|\d+[.)])\s/.test(trimmed)) {
      if (heading !== null) break; // a list, not a paragraph
      continue;
    }
    const paragraph: string[] = [];
    for (
      let j = i;
      j < lines.length && lines[j].trim() !== '' && !/^(#|```|~~~|<)/.test(lines[j].trim());
      j++
    )
      paragraph.push(inlineText(lines[j]));
    const sentence = firstSentence(paragraph);
    if (sentence === null) continue;
    if (heading === null) return sentence;
    return heading.toLowerCase() === sentence.toLowerCase() ? heading : `${heading}: ${sentence}`;
  }
  return heading;
}

/** Markdown inline text: images and HTML tags dropped, links to their text, emphasis markers off. */
function inlineText(s: string): string {
  return s
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/<[^>]{0,500}>/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|\W)[*_](\S.*?)[*_](?=\W|$)/g, '$1$2')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Abbreviations a period does not end a sentence after. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|esp|viz|Mr|Mrs|Dr|St|No|[A-Z])$/;

/** The first sentence of the first paragraph of some comment lines, at most 160 characters; null when there is no text. */
export function firstSentence(lines: readonly string[]): string | null {
  const paragraph: string[] = [];
  for (const line of lines) {
    const t = line.trim();
    if (t === '') {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(t);
  }
  const text = paragraph
    .join(' ')
    .replace(
      /\{@link(?:code|plain)?\s+([^}|\s]+)(?:[\s|]+([^}]*))?\}/g,
      (_, target: string, label?: string) => label?.trim() || target,
    )
    .replace(/\s+/g, ' ')
    .trim();
  if (!/[\p{L}\p{N}]/u.test(text)) return null;
  let end = -1;
  for (let k = 0; k < text.length && k <= MAX_SENTENCE; k++) {
    const c = text[k];
    if ((c === '.' || c === '!' || c === '?') && (k + 1 === text.length || /\s/.test(text[k + 1]))) {
      if (c === '.' && ABBREVIATION.test(text.slice(Math.max(0, k - 8), k))) continue;
      end = k + 1;
      break;
    }
  }
  if (end > 0) return text.slice(0, end);
  return text.length <= MAX_SENTENCE ? text : `${text.slice(0, MAX_SENTENCE - 1).trimEnd()}…`;
}
