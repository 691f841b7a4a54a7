/** Which icon a name gets: exact names, then the extension; images and folders drawn. */
import { describe, expect, it } from 'vitest';
import { extensionOf, fileIcon, isImagePath } from './file-icons';

describe('fileIcon', () => {
  it.each([
    ['src/app.ts', 'TypeScript'],
    ['types.d.ts', 'TypeScript'],
    ['App.TSX', 'TypeScript React'],
    ['index.mjs', 'JavaScript'],
    ['package.json', 'npm package'],
    ['data.json', 'JSON'],
    ['README.md', 'Markdown'],
    ['Dockerfile', 'Dockerfile'],
    ['Dockerfile.dev', 'Dockerfile'],
    ['LICENSE', 'Licence'],
    ['.gitignore', 'Git'],
    ['.env.local', 'Settings'],
    ['yarn.lock', 'Lockfile'],
    ['main.go', 'Go'],
    ['lib.rs', 'Rust'],
  ])('%s is %s', (path, kind) => {
    const spec = fileIcon(path);
    expect(spec.shape).toBe('glyph');
    expect(spec.shape === 'glyph' && spec.kind).toBe(kind);
  });

  it('draws images, folders and unknown files', () => {
    expect(fileIcon('logo.PNG')).toEqual({ shape: 'image' });
    expect(fileIcon('icon.svg')).toEqual({ shape: 'image' });
    expect(fileIcon('src', 'directory', true)).toEqual({ shape: 'folder', open: true });
    expect(fileIcon('notes')).toEqual({ shape: 'file' });
    expect(fileIcon('archive.xyz')).toEqual({ shape: 'file' });
    // a name that only looks like a known one keeps to its extension
    expect(fileIcon('my-package.json.bak')).toEqual({ shape: 'file' });
  });

  it('reads extensions from the last segment only', () => {
    expect(extensionOf('a.b/c')).toBe('');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('x/y.Tar.GZ')).toBe('gz');
    expect(isImagePath('docs/shot.webp')).toBe(true);
    expect(isImagePath('docs.png/readme')).toBe(false);
  });
});
