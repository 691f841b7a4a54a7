/**
 * `.mts` and `.cts` (TypeScript's ES-module and CommonJS files) are TypeScript wherever a
 * language is decided: the extension table, chunking and its grammar, the analyzers' script
 * language, explore's language counts, and the tree's icon. Their declaration files are not code.
 */
import { describe, expect, it } from 'vitest';
import { scriptLanguageOf } from '../../src/core/analyze/parsers';
import { grammarLanguageOf, languageForPath } from '../../src/core/chunk/languages';
import { languageCounts } from '../../src/core/explore/summary';
import { fileIcon } from '../../src/ui/shell/file-icons';
import { languageOfExtension } from '../../src/core/source/languages';

describe('.mts and .cts are TypeScript', () => {
  for (const path of ['src/server.mts', 'lib/config.cts']) {
    it(path, () => {
      const ext = path.slice(path.lastIndexOf('.') + 1);
      expect(languageOfExtension(ext)).toBe('typescript');
      expect(languageForPath(path)).toBe('typescript');
      expect(grammarLanguageOf(path)).toBe('typescript');
      expect(scriptLanguageOf(path)).toBe('typescript');
      expect(fileIcon(path)).toEqual(fileIcon('a.ts'));
    });
  }

  it('counts them with .ts files in one TypeScript row', () => {
    expect(languageCounts([{ rel: 'a.ts' }, { rel: 'b.mts' }, { rel: 'c.cts' }, { rel: 'd.mjs' }])).toEqual([
      { language: 'TypeScript', files: 3 },
      { language: 'JavaScript', files: 1 },
    ]);
  });

  it('leaves their declaration files to the type checker', () => {
    expect(scriptLanguageOf('types/index.d.mts')).toBeNull();
    expect(scriptLanguageOf('types/index.d.cts')).toBeNull();
  });
});
