/**
 * A file name as it is printed in a tool's text output (search_files' `# path` header): as is,
 * unless it holds a character that could break or disguise the text around it, then quoted.
 *
 * The rule (README, search_files): a path with a control character (U+0000-U+001F, U+007F-U+009F,
 * newlines and tabs included), a line or paragraph separator (U+2028, U+2029), a bidirectional
 * formatting character (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) or a byte-order
 * mark / zero-width character (U+200B-U+200D, U+2060, U+FEFF), or one that starts with `"`, is
 * printed as a JSON string: in double quotes, `"` and `\` escaped, `\n`, `\r`, `\t`, `\b`, `\f`
 * as such and every other character named above as `\uXXXX`. JSON.parse gives the name back. A
 * plain path (a backslash in it too: `back\slash.ts`) is printed as it is, so a header that
 * starts with `"` is always a quoted one. A raw name could otherwise split the `# path` line
 * or forge a header (`a.ts\n# b.ts`), and a right-to-left override makes `evil\u202Est.ts`
 * read as another name.
 */

/** The characters that make a path quoted (besides a leading `"`). */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

/** Whether `path` is printed quoted. */
export function needsQuoting(path: string): boolean {
  return path.startsWith('"') || UNSAFE.test(path);
}

/** `path` for a line of text output: as is, or as a JSON string (see above). */
export function quotePath(path: string): string {
  if (!needsQuoting(path)) return path;
  // JSON.stringify escapes `"`, `\` and U+0000-U+001F; the rest of UNSAFE it leaves raw
  return JSON.stringify(path).replace(
    UNSAFE_ALL,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
