/**
 * Minified (and other machine-written one-line) code: both symbol indexes (Quarry's chunks and
 * seed 004's) keep such a file out and report it as skipped with reason 'minified'; the
 * trigram text search still finds text in it. Left in, a 1 MB one-line bundle became tens of
 * thousands of chunks that each held the whole line (minutes to index, megabytes stored) and
 * topped every find_related list by sheer token count.
 *
 * THE RULE. A line is long from LONG_LINE characters (BUILT_LONG_LINE when the file says it is
 * built output: a `.min.js`-style or `.bundle.js`-style name, or a `//# sourceMappingURL=`
 * comment near its end). A long line is code when at least 3 in 100 of its characters are one
 * of `; , { } ( )` and at least 20 in 100 are ASCII letters (minified code has 6-20 marks and
 * about half letters; base64 blobs, Unicode tables in regexes and giant union types have under
 * 2 marks, arrays of numbers almost no letters: they are left to the normal chunking, which
 * finds no symbols in them anyway). The file is minified when
 * its long code lines hold at least half of its characters, not counting long lines that are
 * not code (so an inline source map does not hide the bundle before it).
 *
 * Calibrated on node_modules: no file of typescript/lib, @babel/core/lib or three/src is
 * minified (their longest line is 1,973 characters); bundles such as three.module.min.js,
 * Next's compiled packages and `.min.js` builds are; three's SMAAPass.js (44 KB base64
 * images), @babel/types' index.d.ts (30 KB union types) and a data file of many 3,000-character
 * lines are not. Cost: one indexOf pass over the lines plus one pass over the long lines.
 */

/** Lines from this many characters (UTF-16 code units) may make a file minified. */
export const LONG_LINE = 10_000;
/** The same for a file whose name or source-map comment says it is built output. */
export const BUILT_LONG_LINE = 1_000;
/** Out of 100 characters of a long line, at least this many of `; , { } ( )` make it code. */
const CODE_MARKS_PER_100 = 3;
/** ... and at least this many ASCII letters (arrays of numbers are data, not code). */
const LETTERS_PER_100 = 20;

const BUILT_NAME = /[.-]min\.[cm]?js$|\.bundle\.[cm]?js$/;
const SOURCE_MAP_COMMENT = /\/[/*][#@] sourceMappingURL=/;

/** Why `text` counts as minified (for the skip's detail: "1 line of 1,048,576 characters"), or null. */
export function minifiedDetail(path: string, text: string): string | null {
  const n = text.length;
  if (n < BUILT_LONG_LINE) return null;
  const built = BUILT_NAME.test(path) || SOURCE_MAP_COMMENT.test(text.slice(Math.max(0, n - 512)));
  const long = built ? BUILT_LONG_LINE : LONG_LINE;
  if (n < long) return null;
  let lines = 0;
  let longest = 0;
  let codeChars = 0;
  let dataChars = 0;
  for (let start = 0; start < n;) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? n : nl;
    const len = end - start;
    lines++;
    if (len > longest) longest = len;
    if (len >= long) {
      if (isCodeLine(text, start, end)) codeChars += len;
      else dataChars += len;
    }
    start = end + 1;
  }
  if (codeChars === 0 || codeChars * 2 < n - dataChars) return null;
  return lines === 1
    ? `1 line of ${count(n)} characters`
    : `${count(lines)} lines of ${count(n)} characters, the longest ${count(longest)}`;
}

function isCodeLine(text: string, start: number, end: number): boolean {
  const needMarks = Math.ceil(((end - start) * CODE_MARKS_PER_100) / 100);
  const needLetters = Math.ceil(((end - start) * LETTERS_PER_100) / 100);
  let marks = 0;
  let letters = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    const folded = c | 0x20; // ASCII letters to lower case
    if (folded >= 0x61 && folded <= 0x7a) letters++;
    // ; , { } ( )
    else if (c === 0x3b || c === 0x2c || c === 0x7b || c === 0x7d || c === 0x28 || c === 0x29) marks++;
    else continue;
    if (marks >= needMarks && letters >= needLetters) return true;
  }
  return false;
}

/** 1048576 -> "1,048,576" (no locale: the same text everywhere). */
function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
