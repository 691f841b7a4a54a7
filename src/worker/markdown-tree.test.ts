/**
 * Markdown as a tree of plain data: the structure people expect (GitHub-flavoured), and hostile
 * content that stays inert: raw HTML is a text node, script-bearing link schemes in every
 * spelling are blocked, nothing is followed outside the repository, deep nesting is bounded.
 */
import { describe, expect, it } from 'vitest';
import { QuarryError } from '../core/errors';
import { decodeEntities, linkTarget, resolveRepoPath, slugify } from './markdown-links';
import {
  MARKDOWN_MAX_BYTES,
  MAX_MARKDOWN_DEPTH,
  markdownDocument,
  markdownTree,
  type MdBlock,
  type MdInline,
} from './markdown-tree';

const BLOCK_TYPES = new Set([
  'heading',
  'paragraph',
  'plain',
  'code',
  'quote',
  'list',
  'table',
  'hr',
  'html',
]);
const INLINE_TYPES = new Set(['text', 'strong', 'em', 'del', 'code', 'br', 'html', 'link', 'image']);

/** Every node of a tree, with its depth; fails on a node type outside the fixed sets. */
function walk(blocks: MdBlock[], visit: (node: MdBlock | MdInline, depth: number) => void, depth = 0): void {
  const inl = (nodes: MdInline[], d: number) => {
    for (const n of nodes) {
      expect(INLINE_TYPES.has(n.t), `inline type ${n.t}`).toBe(true);
      visit(n, d);
      if ('children' in n) inl(n.children, d + 1);
    }
  };
  for (const b of blocks) {
    expect(BLOCK_TYPES.has(b.t), `block type ${b.t}`).toBe(true);
    visit(b, depth);
    if (b.t === 'heading' || b.t === 'paragraph' || b.t === 'plain') inl(b.children, depth + 1);
    else if (b.t === 'quote') walk(b.children, visit, depth + 1);
    else if (b.t === 'list') for (const item of b.items) walk(item.children, visit, depth + 1);
    else if (b.t === 'table') for (const cell of [...b.head, ...b.rows.flat()]) inl(cell, depth + 1);
  }
}

describe('markdownTree', () => {
  it('maps the usual structure', () => {
    const tree = markdownTree(
      [
        '# Title',
        '',
        'Some *em*, **strong**, ~~gone~~ and `a<b` text  ',
        'next line',
        '',
        '3. three',
        '4. four',
        '',
        '- [ ] todo',
        '- [x] done',
        '',
        '| a | b | c |',
        '|:--|:-:|--:|',
        '| 1 | 2 | 3 |',
        '',
        '> quoted',
        '',
        '```ts title="x"',
        'let x = 1 < 2;',
        '```',
        '',
        '---',
      ].join('\n'),
      'README.md',
    );
    expect(tree.map((b) => b.t)).toEqual([
      'heading',
      'paragraph',
      'list',
      'list',
      'table',
      'quote',
      'code',
      'hr',
    ]);
    expect(tree[0]).toEqual({
      t: 'heading',
      level: 1,
      id: 'title',
      children: [{ t: 'text', text: 'Title' }],
    });
    expect(tree[1]).toEqual({
      t: 'paragraph',
      children: [
        { t: 'text', text: 'Some ' },
        { t: 'em', children: [{ t: 'text', text: 'em' }] },
        { t: 'text', text: ', ' },
        { t: 'strong', children: [{ t: 'text', text: 'strong' }] },
        { t: 'text', text: ', ' },
        { t: 'del', children: [{ t: 'text', text: 'gone' }] },
        { t: 'text', text: ' and ' },
        { t: 'code', text: 'a<b' },
        { t: 'text', text: ' text' },
        { t: 'br' },
        { t: 'text', text: 'next line' },
      ],
    });
    expect(tree[2]).toMatchObject({
      t: 'list',
      ordered: true,
      start: 3,
      items: [{ checked: null }, { checked: null }],
    });
    expect(tree[3]).toEqual({
      t: 'list',
      ordered: false,
      start: 1,
      items: [
        { checked: false, children: [{ t: 'plain', children: [{ t: 'text', text: 'todo' }] }] },
        { checked: true, children: [{ t: 'plain', children: [{ t: 'text', text: 'done' }] }] },
      ],
    });
    expect(tree[4]).toMatchObject({
      t: 'table',
      align: ['left', 'center', 'right'],
      head: [[{ t: 'text', text: 'a' }], [{ t: 'text', text: 'b' }], [{ t: 'text', text: 'c' }]],
    });
    expect(tree[6]).toEqual({ t: 'code', lang: 'ts', text: 'let x = 1 < 2;' });
  });

  it('gives headings GitHub-style ids, repeated ones numbered', () => {
    const tree = markdownTree(
      '## Getting started!\n\n## Getting started!\n\n### API: `open()` & more',
      'a.md',
    );
    expect(tree.map((b) => (b.t === 'heading' ? b.id : ''))).toEqual([
      'getting-started',
      'getting-started-1',
      'api-open--more',
    ]);
  });

  it('keeps raw HTML as text: no element, attribute or handler from the content', () => {
    const hostile = [
      '# Hi <script>alert(1)</script>',
      '',
      '<script>alert("block")</script>',
      '',
      'x <img src=x onerror=alert(1)> y <a href="javascript:alert(2)">z</a>',
      '',
      '<div onclick="alert(3)" style="position:fixed">overlay</div>',
      '',
      '<iframe src="https://example.com"></iframe>',
    ].join('\n');
    const tree = markdownTree(hostile, 'evil.md');
    const html: string[] = [];
    walk(tree, (n) => {
      if (n.t === 'html') html.push(n.text);
    });
    expect(html).toEqual([
      '<script>',
      '</script>',
      '<script>alert("block")</script>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(2)">',
      '</a>',
      '<div onclick="alert(3)" style="position:fixed">overlay</div>',
      '<iframe src="https://example.com"></iframe>',
    ]);
  });

  it('blocks script-bearing and unknown link schemes however they are spelt', () => {
    const md = [
      '[a](javascript:alert(1))',
      '[b](JaVaScRiPt:alert(1))',
      '[c](&#106;avascript:alert(1))',
      '[d](&#x6A;avascript:alert(1))',
      '[e](data:text/html,<script>alert(1)</script>)',
      '[f](vbscript:msgbox)',
      '[g](file:///etc/passwd)',
      '[h](//evil.example/x)',
      '![i](javascript:alert(1))',
      '![j](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
    ].join('\n\n');
    const targets: string[] = [];
    walk(markdownTree(md, 'docs/a.md'), (n) => {
      if (n.t === 'link' || n.t === 'image') targets.push(n.target.kind);
    });
    expect(targets).toEqual(Array(10).fill('blocked'));
  });

  it('resolves links and images to repository files, pages, mail and headings', () => {
    const md =
      '[rel](../src/app.ts#L12) [root](/docs/guide.md) [ext](<https://example.com/a b>) [mail](mailto:a@b.c) [head](#Getting%20Started) ![logo](img/logo.png "Logo &amp; co") ![badge](https://img.example/b.svg)';
    const found: unknown[] = [];
    walk(markdownTree(md, 'docs/README.md'), (n) => {
      if (n.t === 'link') found.push(n.target);
      if (n.t === 'image') found.push({ ...n.target, alt: n.alt, title: n.title });
    });
    expect(found).toEqual([
      { kind: 'repo', path: 'src/app.ts', line: 12 },
      { kind: 'repo', path: 'docs/guide.md', line: 0 },
      { kind: 'external', href: 'https://example.com/a%20b' },
      { kind: 'mailto', href: 'mailto:a@b.c' },
      { kind: 'anchor', id: 'getting-started' },
      { kind: 'repo', path: 'docs/img/logo.png', line: 0, alt: 'logo', title: 'Logo & co' },
      { kind: 'external', href: 'https://img.example/b.svg', alt: 'badge', title: '' },
    ]);
  });

  it('decodes character references in text, not in code', () => {
    const tree = markdownTree('a &amp; b &lt;i&gt; &#x1F600; &copy; &bogus; `&amp;`', 'a.md');
    expect(tree[0]).toEqual({
      t: 'paragraph',
      children: [
        { t: 'text', text: 'a & b <i> 😀 © &bogus; ' },
        { t: 'code', text: '&amp;' },
      ],
    });
  });

  it('bounds nesting: deep quotes are flattened to text, a lexer overflow is a clear error', () => {
    let maxDepth = 0;
    walk(markdownTree('> '.repeat(200) + 'deep', 'a.md'), (_n, d) => (maxDepth = Math.max(maxDepth, d)));
    expect(maxDepth).toBeLessThanOrEqual(MAX_MARKDOWN_DEPTH + 2);
    let err: unknown;
    try {
      markdownTree('>'.repeat(20_000) + ' deep', 'deep.md');
    } catch (e) {
      err = e;
    }
    // either the lexer copes (then the tree is bounded) or the refusal says why
    if (err) {
      expect(err).toBeInstanceOf(QuarryError);
      expect((err as QuarryError).message).toBe('"deep.md" nests too deeply to be shown rendered');
    }
  });

  it('refuses a document over the size cap, saying so', () => {
    const big = 'x'.repeat(10);
    expect(markdownDocument(big, MARKDOWN_MAX_BYTES, 'ok.md').blocks).toHaveLength(1);
    let err: QuarryError | null = null;
    try {
      markdownDocument(big, MARKDOWN_MAX_BYTES + 1, 'big.md');
    } catch (e) {
      err = e as QuarryError;
    }
    expect(err?.code).toBe('Unreadable');
    expect(err?.data).toMatchObject({ reason: 'tooLarge', limit: MARKDOWN_MAX_BYTES });
    expect(err?.message).toBe('"big.md" is 256 KB: Markdown over 256 KB is shown as its source');
  });
});

describe('markdown links', () => {
  it.each([
    ['java\tscript:alert(1)', 'blocked'],
    [' \u0001javascript:alert(1)', 'blocked'],
    ['\\\\evil.example\\x', 'blocked'],
    ['C:\\Windows', 'blocked'],
    ['http://[bad', 'blocked'],
    ['mailto:a@b.c?subject=<x>', 'blocked'],
    ['HTTPS://Example.com', 'external'],
    ['./a.md', 'repo'],
    ['../../outside.md', 'blocked'],
    ['', 'blocked'],
  ])('%j is %s', (href, kind) => {
    expect(linkTarget(href, 'docs/a.md').kind).toBe(kind);
  });

  it('resolves paths inside the root only', () => {
    expect(resolveRepoPath('docs/guide/a.md', '../b.md')).toBe('docs/b.md');
    expect(resolveRepoPath('a.md', './x/./y/../z.ts')).toBe('x/z.ts');
    expect(resolveRepoPath('a.md', '../x')).toBeNull();
    // several roots: a path stays in its own root, '/' starts at it
    expect(resolveRepoPath('app/docs/a.md', '/src/x.ts', 'app/')).toBe('app/src/x.ts');
    expect(resolveRepoPath('app/a.md', '../lib/x.ts', 'app/')).toBeNull();
    expect(linkTarget('my%20file.md?raw=1#L3-L9', 'a.md')).toEqual({
      kind: 'repo',
      path: 'my file.md',
      line: 3,
    });
  });

  it('decodes references and slugs headings', () => {
    expect(decodeEntities('&#0;&#xD800;&#1114112;')).toBe('\ufffd\ufffd\ufffd');
    expect(decodeEntities('&AMP; &amp')).toBe('&AMP; &amp');
    expect(slugify('  Ünïcode Héading — 2!  ')).toBe('ünïcode-héading--2');
  });
});
