/** How the viewer shows a file, from its name and the address. */
import { describe, expect, it } from 'vitest';
import { hasSource, imageMime, pickReadme, showsRendered, viewerKind } from './file-kind';

describe('viewer kinds', () => {
  it.each([
    ['README.md', 'markdown'],
    ['docs/Guide.MARKDOWN', 'markdown'],
    ['a.png', 'image'],
    ['b.svg', 'image'],
    ['c.ts', 'text'],
    ['md', 'text'],
  ])('%s shows as %s', (path, kind) => expect(viewerKind(path)).toBe(kind));

  it('renders Markdown unless asked for the source or opened at a line; rasters always', () => {
    expect(showsRendered('a.md', 'rendered', 0)).toBe(true);
    expect(showsRendered('a.md', 'source', 0)).toBe(false);
    expect(showsRendered('a.md', 'rendered', 12)).toBe(false);
    expect(showsRendered('a.png', 'source', 3)).toBe(true);
    expect(showsRendered('a.svg', 'source', 0)).toBe(false);
    expect(showsRendered('a.svg', 'rendered', 4)).toBe(true);
    expect(showsRendered('a.ts', 'rendered', 0)).toBe(false);
    expect([hasSource('a.svg'), hasSource('a.png'), hasSource('a.md')]).toEqual([true, false, true]);
  });

  it('types pictures for their blob (an SVG as an image, shown only through <img>)', () => {
    expect(imageMime('x.svg')).toBe('image/svg+xml');
    expect(imageMime('x.JPG')).toBe('image/jpeg');
    expect(imageMime('x.bin')).toBe('application/octet-stream');
  });

  it('finds the README of a folder listing', () => {
    const f = (name: string, extra = {}) => ({ name, kind: 'file', ...extra });
    expect(pickReadme([f('readme.markdown'), f('README.md'), f('a.ts')])).toBe('README.md');
    expect(pickReadme([f('Readme.md'), { name: 'README.md', kind: 'directory' }])).toBe('Readme.md');
    expect(pickReadme([f('README.md', { skipped: 'tooLarge' }), f('README.txt')])).toBeNull();
    expect(pickReadme([])).toBeNull();
  });
});
