/** CodeText's window of a line (`from`, `to`): what a results row renders of a long line. */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { cutColumn, ROW_CHARS } from './blocks';
import { CodeText } from './CodeText';

const textOf = (html: string) => html.replace(/<[^>]+>/g, '');
const marksOf = (html: string) => [...html.matchAll(/<mark>(.*?)<\/mark>/g)].map((m) => textOf(m[1]));

describe('CodeText window', () => {
  it('renders only the columns from `from` up to `to`, the hits inside it marked and a hit across the end cut there', () => {
    const line = 'var a=1;'.repeat(100) + 'renderWidget(n)' + ';x()'.repeat(300);
    const at = line.indexOf('renderWidget');
    const html = renderToStaticMarkup(
      <CodeText text={line} lang="c-like" hits={[[at, at + 12]]} from={at - 24} to={at - 24 + 30} />,
    );
    expect(textOf(html)).toBe(line.slice(at - 24, at + 6));
    expect(marksOf(html)).toEqual(['render']);
  });

  it('leaves out hits past the window and renders a short line whole', () => {
    const line = 'a'.repeat(ROW_CHARS) + 'hit';
    const html = renderToStaticMarkup(
      <CodeText text={line} lang="plain" hits={[[ROW_CHARS, ROW_CHARS + 3]]} to={ROW_CHARS} />,
    );
    expect(textOf(html)).toBe('a'.repeat(ROW_CHARS));
    expect(marksOf(html)).toEqual([]);
    expect(
      textOf(renderToStaticMarkup(<CodeText text="short hit" lang="plain" hits={[[6, 9]]} to={ROW_CHARS} />)),
    ).toBe('short hit');
  });

  it('never cuts a surrogate pair in two', () => {
    const line = 'ab😀cd';
    expect(cutColumn(line, 3)).toBe(2); // inside the pair: before it
    expect(cutColumn(line, 4)).toBe(4);
    expect(cutColumn(line, 99)).toBe(line.length);
    expect(textOf(renderToStaticMarkup(<CodeText text={line} lang="plain" to={3} />))).toBe('ab');
  });
});

describe('CodeText caret', () => {
  const caretAt = (html: string) => textOf(html.split('<span class="caret"')[0]).length;
  it('puts the caret between the characters of its column, inside colours and marks, or at the end', () => {
    const line = 'const total = formatMoney(cents);';
    for (const col of [0, 6, 14, 20, line.length]) {
      const html = renderToStaticMarkup(
        <CodeText text={line} lang="c-like" hits={[[14, 25]]} markClass="occ" caret={col} />,
      );
      expect(html.match(/class="caret"/g)).toHaveLength(1);
      expect(caretAt(html)).toBe(col);
      expect(textOf(html)).toBe(line); // the text itself is untouched
    }
    expect(renderToStaticMarkup(<CodeText text="" lang="plain" caret={0} />)).toContain('class="caret"');
    expect(renderToStaticMarkup(<CodeText text={line} lang="plain" />)).not.toContain('caret');
  });
});
