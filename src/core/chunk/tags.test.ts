/** TagsQueries (tags.ts) over the grammar packages' own tags.scm, and over ones this runtime cannot use. */
import { describe, expect, it } from 'vitest';
import { Language, Parser } from 'web-tree-sitter';
import { nodeGrammarLoader } from '../../adapters/node/grammars';
import { initRuntime } from './index';
import { RUBY_TAGS } from './scripting';
import { TagsQueries } from './tags';

describe("the packages' tags.scm", () => {
  it.each(['c', 'cpp', 'java', 'csharp', 'ruby', 'php'] as const)(
    '%s: compiles with this web-tree-sitter and is used',
    async (lang) => {
      await initRuntime(nodeGrammarLoader);
      const language = await Language.load(await nodeGrammarLoader.grammarWasm(lang));
      const { GRAMMAR_SPECS } = await import('./languages');
      const queries = new TagsQueries(
        language,
        await nodeGrammarLoader.tagsQuery(lang),
        GRAMMAR_SPECS[lang].tags!,
      );
      expect(queries.usesPackageTags).toBe(true);
      queries.delete();
    },
  );

  it('keeps only definition patterns; unknown predicates (#strip!, #select-adjacent!) do not break a match', async () => {
    await initRuntime(nodeGrammarLoader);
    const language = await Language.load(await nodeGrammarLoader.grammarWasm('ruby'));
    const scm = [
      '((identifier) @name @reference.call)',
      '((comment)* @doc . (method name: (_) @name) @definition.method (#strip! @doc "^#\\s*") (#select-adjacent! @doc @definition.method))',
    ].join('\n');
    const queries = new TagsQueries(language, scm, { ...RUBY_TAGS, patterns: '' });
    const parser = new Parser().setLanguage(language);
    const tree = parser.parse('# doc\ndef f(a)\n  g(a)\nend\n')!;
    const tags = queries.tags(tree.rootNode);
    expect(tags.map((t) => [t.kind, t.node.type, t.name?.text])).toEqual([['method', 'method', 'f']]);
    tree.delete();
    parser.delete();
    queries.delete();
  });

  it('a tags.scm this runtime cannot compile leaves the own patterns working', async () => {
    await initRuntime(nodeGrammarLoader);
    const language = await Language.load(await nodeGrammarLoader.grammarWasm('ruby'));
    const queries = new TagsQueries(language, '(no_such_node) @definition.class', {
      ...RUBY_TAGS,
      patterns: '(method) @definition.method',
    });
    expect(queries.usesPackageTags).toBe(false);
    const parser = new Parser().setLanguage(language);
    const tree = parser.parse('def f; end\n')!;
    expect(queries.tags(tree.rootNode).map((t) => t.node.type)).toEqual(['method']);
    tree.delete();
    parser.delete();
    queries.delete();
  });
});
