import { describe, expect, it } from 'vitest';
import { codePointLabel, hasHiddenChars, hiddenCharName, visibleParts, visibleText } from './visible-text';

describe('visibleText', () => {
  const cases: Array<{ input: string; want: string }> = [
    // the Trojan-source file name: shown with its override, not as "rtlexe.txt"
    { input: 'rtl\u202Etxt.exe', want: 'rtl<U+202E>txt.exe' },
    { input: 'a\u202Ab\u202Bc\u202Cd\u202De', want: 'a<U+202A>b<U+202B>c<U+202C>d<U+202D>e' },
    { input: '\u2066x\u2067y\u2068z\u2069', want: '<U+2066>x<U+2067>y<U+2068>z<U+2069>' },
    { input: 'l\u200Er\u200Fa\u061C', want: 'l<U+200E>r<U+200F>a<U+061C>' },
    // C0/C1 controls and DEL
    { input: 'two\nlines.ts', want: 'two<U+000A>lines.ts' },
    { input: 'tab\there\r', want: 'tab<U+0009>here<U+000D>' },
    { input: '\u0000\u001b[31m\u007f\u0085', want: '<U+0000><U+001B>[31m<U+007F><U+0085>' },
    // invisible characters
    {
      input: 'zero\u200Bwidth\uFEFF\u00AD\u2060\u2028\u2029',
      want: 'zero<U+200B>width<U+FEFF><U+00AD><U+2060><U+2028><U+2029>',
    },
    { input: 'tag\u{E0041}\u{E007F}', want: 'tag<U+E0041><U+E007F>' },
    // left alone: ordinary names, markup-looking names (React renders them as text), quotes,
    // emoji with their joiners and variation selectors, right-to-left letters
    { input: '<img src=x onerror=alert(1)>.ts', want: '<img src=x onerror=alert(1)>.ts' },
    { input: `it's "quoted" & \`ticked\`.md`, want: `it's "quoted" & \`ticked\`.md` },
    { input: '👨\u200D👩\u200D👧 ❤\uFE0F.txt', want: '👨\u200D👩\u200D👧 ❤\uFE0F.txt' },
    { input: 'می\u200Cخواهم.md', want: 'می\u200Cخواهم.md' },
    { input: 'שלום/עולם.ts', want: 'שלום/עולם.ts' },
    { input: '', want: '' },
    { input: 'src/ui/App.tsx', want: 'src/ui/App.tsx' },
  ];
  for (const { input, want } of cases) {
    it(JSON.stringify(input), () => {
      expect(visibleText(input)).toBe(want);
      expect(hasHiddenChars(input)).toBe(input !== want);
      // the parts spell the same text; only hidden characters are marked
      const parts = visibleParts(input);
      expect(parts.map((p) => p.text).join('')).toBe(want);
      for (const p of parts) if (p.hidden) expect(p.text).toMatch(/^<U\+[0-9A-F]{4,5}>$/);
    });
  }

  it('is the same on a second call (no regex state carried over)', () => {
    expect(visibleText('a\u202Eb')).toBe('a<U+202E>b');
    expect(visibleText('a\u202Eb')).toBe('a<U+202E>b');
    expect(hasHiddenChars('a\u202Eb')).toBe(true);
    expect(hasHiddenChars('a\u202Eb')).toBe(true);
  });

  it('cuts text into runs and names each hidden character', () => {
    expect(visibleParts('rtl\u202Etxt.exe')).toEqual([
      { text: 'rtl' },
      { text: '<U+202E>', hidden: 'U+202E right-to-left override (bidi)' },
      { text: 'txt.exe' },
    ]);
    expect(visibleParts('\n\n')).toEqual([
      { text: '<U+000A>', hidden: 'U+000A line feed (newline)' },
      { text: '<U+000A>', hidden: 'U+000A line feed (newline)' },
    ]);
    expect(hiddenCharName('\u0001')).toBe('U+0001 control character');
    expect(hiddenCharName('\u2064')).toBe('U+2064 invisible character');
    expect(codePointLabel('\u{E0041}')).toBe('U+E0041');
  });

  it('keeps line breaks of multiline text when asked', () => {
    expect(visibleParts('one\ntwo\u202E', { multiline: true })).toEqual([
      { text: 'one\ntwo' },
      { text: '<U+202E>', hidden: 'U+202E right-to-left override (bidi)' },
    ]);
    expect(visibleParts('one\ntwo', { multiline: true })).toEqual([{ text: 'one\ntwo' }]);
  });
});
