/**
 * The coverage of the ranked index in words, the same in the app's status line and in
 * `quarry chunks --stats`: "Ranked: 4,823 of 4,836 files; 4,210 parsed, 613 as blocks (no
 * parser for .pl, .tcl); 13 text only (minified 9, generated 4)".
 */
import type { Coverage } from './build';

const count = (n: number) => n.toLocaleString('en-US');

/** The block extensions, most files first: `.pl, .tcl and 3 more`. */
export function unparsedExtensions(c: Coverage, shown = 4): string {
  const names = c.blockExtensions.map((e) => e.ext);
  return names.length <= shown
    ? names.join(', ')
    : `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

export function textOnlyCount(c: Coverage): number {
  return c.textOnly.minified + c.textOnly.generated + c.textOnly.failed;
}

export function textOnlyReasons(c: Coverage): string {
  const r: string[] = [];
  if (c.textOnly.minified) r.push(`minified ${count(c.textOnly.minified)}`);
  if (c.textOnly.generated) r.push(`generated ${count(c.textOnly.generated)}`);
  if (c.textOnly.failed) r.push(`parser failed ${count(c.textOnly.failed)}`);
  return r.join(', ');
}

export function coverageSentence(c: Coverage): string {
  const parts = [`${count(c.symbols)} parsed`];
  if (c.blocks) parts.push(`${count(c.blocks)} as blocks (no parser for ${unparsedExtensions(c)})`);
  const textOnly = textOnlyCount(c);
  if (textOnly) parts.push(`${count(textOnly)} text only (${textOnlyReasons(c)})`);
  const over = c.overBudget ? `; ${count(c.overBudget)} over the index budget` : '';
  return `Ranked: ${count(c.symbols + c.blocks)} of ${count(c.textFiles)} files; ${parts.join(', ')}${over}`;
}
