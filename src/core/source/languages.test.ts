import { describe, expect, it } from 'vitest';
import { extensionTable, LANGUAGES, languageOfExtension } from './languages';

describe('the extension table', () => {
  it('names each extension once, in lower case', () => {
    const seen = new Set<string>();
    for (const info of Object.values(LANGUAGES))
      for (const ext of info.extensions) {
        expect(seen.has(ext), ext).toBe(false);
        expect(ext).toBe(ext.toLowerCase());
        seen.add(ext);
      }
  });

  it('answers an extension exactly as written', () => {
    expect(languageOfExtension('ts')).toBe('typescript');
    expect(languageOfExtension('mts')).toBe('typescript');
    expect(languageOfExtension('tsx')).toBe('tsx');
    expect(languageOfExtension('h')).toBe('c-header');
    expect(languageOfExtension('TS')).toBeNull();
    expect(languageOfExtension('constructor')).toBeNull();
    expect(languageOfExtension('')).toBeNull();
  });

  it('derives the views its users read', () => {
    const chunker = extensionTable((info) => info.chunker);
    expect(chunker.jsx).toBe('javascript');
    expect(chunker.h).toBe('c');
    expect(chunker.hxx).toBe('cpp');
    expect(chunker.scss).toBe('css');
    expect(chunker.sass).toBeUndefined();
    expect(chunker.mdx).toBeUndefined();
    const family = extensionTable((info) => info.family);
    expect(family.tsx).toBe('ts');
    expect(family.rake).toBe('ruby');
    expect(family.sh).toBe('shell');
    expect(family.vue).toBeUndefined();
  });
});
