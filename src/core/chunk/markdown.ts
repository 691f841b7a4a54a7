/**
 * Markdown sections without a grammar: one chunk per ATX heading (`#` .. `######`, up to
 * three spaces of indent, then a space/tab or the end of the line), from the heading line
 * to the line before the next heading of any level. Lines inside ``` / ~~~ fences and a
 * leading `---` front-matter block are never headings. Setext (underlined) headings are
 * not sections.
 */
import type { Chunk } from './types';

const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;

export function chunkMarkdown(path: string, text: string): Chunk[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop(); // the newline ends the last line
  const headings: { line: number; name: string }[] = [];
  let fence: { char: string; length: number } | null = null;
  let i = 0;
  if (lines.length > 0 && stripCr(lines[0]) === '---') {
    for (let j = 1; j < lines.length; j++) {
      const l = stripCr(lines[j]).trimEnd();
      if (l === '---' || l === '...') {
        i = j + 1;
        break;
      }
    }
  }
  for (; i < lines.length; i++) {
    const line = stripCr(lines[i]);
    if (fence) {
      const close = FENCE.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length && close[2].trim() === '')
        fence = null;
      continue;
    }
    const open = FENCE.exec(line);
    if (open && !(open[1][0] === '`' && open[2].includes('`'))) {
      fence = { char: open[1][0], length: open[1].length };
      continue;
    }
    const h = HEADING.exec(line);
    if (h) headings.push({ line: i + 1, name: headingText(h[2] ?? '') });
  }
  return headings.map((h, k) => ({
    path,
    startLine: h.line,
    endLine: k + 1 < headings.length ? headings[k + 1].line - 1 : lines.length,
    symbolName: h.name,
    chunkType: 'section' as const,
  }));
}

/** Drops an optional closing `#` sequence (`## Title ##`) and surrounding blanks. */
function headingText(raw: string): string {
  const t = raw.trim();
  if (/^#+$/.test(t)) return '';
  return t.replace(/[ \t]+#+$/, '').trim();
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
