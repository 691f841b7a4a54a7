/**
 * Names and paths from a repository, made safe to look at. A character that is invisible or
 * reorders the text around it is shown as `<U+XXXX>`, so `rtl\u202Etxt.exe` cannot pass for
 * `rtlexe.txt` and `a\nb.ts` cannot pass for two names. Every place the UI shows a file name,
 * path, symbol, branch, commit subject or root name goes through here (as text: React escapes
 * it; nothing is ever parsed as markup). File contents are not rewritten (column offsets and
 * copy/paste must stay exact).
 *
 * Shown escaped:
 * - C0 and C1 controls and DEL (U+0000-U+001F, U+007F-U+009F): tab, newline, escape, ...
 * - bidirectional controls: U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069
 * - invisible characters: soft hyphen U+00AD, U+180E, zero-width space U+200B, line and
 *   paragraph separators U+2028/U+2029, U+2060-U+2064, U+FEFF, U+FFF9-U+FFFB, and the tag
 *   characters U+E0000-U+E007F (invisible text)
 * Kept as they are: zero-width (non-)joiners U+200C/U+200D and variation selectors, which
 * emoji and several scripts need.
 */

const HIDDEN =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]/u;
const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');

const NAMES: Record<number, string> = {
  0x00: 'null',
  0x09: 'tab',
  0x0a: 'line feed (newline)',
  0x0d: 'carriage return',
  0x1b: 'escape',
  0x7f: 'delete',
  0xad: 'soft hyphen',
  0x61c: 'Arabic letter mark (bidi)',
  0x200b: 'zero-width space',
  0x200e: 'left-to-right mark (bidi)',
  0x200f: 'right-to-left mark (bidi)',
  0x2028: 'line separator',
  0x2029: 'paragraph separator',
  0x202a: 'left-to-right embedding (bidi)',
  0x202b: 'right-to-left embedding (bidi)',
  0x202c: 'pop directional formatting (bidi)',
  0x202d: 'left-to-right override (bidi)',
  0x202e: 'right-to-left override (bidi)',
  0x2060: 'word joiner',
  0x2066: 'left-to-right isolate (bidi)',
  0x2067: 'right-to-left isolate (bidi)',
  0x2068: 'first strong isolate (bidi)',
  0x2069: 'pop directional isolate (bidi)',
  0xfeff: 'zero-width no-break space (BOM)',
};

/** `U+202E` for a character. */
export function codePointLabel(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What a hidden character is, in words (for a tooltip). */
export function hiddenCharName(ch: string): string {
  const cp = ch.codePointAt(0)!;
  const name =
    NAMES[cp] ??
    (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)
      ? 'control character'
      : cp >= 0xe0000
        ? 'tag character (invisible)'
        : 'invisible character');
  return `${codePointLabel(ch)} ${name}`;
}

export function hasHiddenChars(text: string): boolean {
  return HIDDEN.test(text);
}

/** The text with every hidden character written as `<U+XXXX>`: for titles, labels and other plain strings. */
export function visibleText(text: string): string {
  return HIDDEN.test(text) ? text.replace(HIDDEN_ALL, (ch) => `<${codePointLabel(ch)}>`) : text;
}

export type VisiblePart = { text: string; hidden?: undefined } | { text: string; hidden: string };

/**
 * The text cut into runs of ordinary text and hidden characters: `{text: '<U+202E>', hidden:
 * 'U+202E right-to-left override (bidi)'}` for each hidden one, so a view can style them apart.
 * Joining every part's `text` gives visibleText(text) (with `multiline`, newlines stay as they are).
 */
export function visibleParts(text: string, options: { multiline?: boolean } = {}): VisiblePart[] {
  if (!HIDDEN.test(text)) return [{ text }];
  const parts: VisiblePart[] = [];
  let last = 0;
  for (const m of text.matchAll(HIDDEN_ALL)) {
    // multiline text (a commit message body) keeps its line breaks
    if (options.multiline && m[0] === '\n') continue;
    if (m.index > last) parts.push({ text: text.slice(last, m.index) });
    parts.push({ text: `<${codePointLabel(m[0])}>`, hidden: hiddenCharName(m[0]) });
    last = m.index + m[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
