/**
 * The rendered Markdown as HTML (react-dom/server): hostile content stays text. No element,
 * attribute or handler comes from the file; every href is one the worker classified; external
 * links open in a new tab without a referrer or opener.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { EngineClient } from '../../worker/client';
import { markdownTree } from '../../worker/markdown-tree';
import { EngineContext } from '../engine';
import { Blocks, type MarkdownLinks } from './MarkdownBody';

const links: MarkdownLinks = {
  repoKey: 'demo',
  openFile: () => {},
  hrefFor: (path, line) => `/?file=${encodeURIComponent(path)}${line ? `&line=${line}` : ''}`,
};

function render(md: string, path = 'docs/README.md'): string {
  return renderToStaticMarkup(
    <EngineContext.Provider value={{} as EngineClient}>
      <Blocks blocks={markdownTree(md, path)} links={links} />
    </EngineContext.Provider>,
  );
}

const HOSTILE = [
  '# Title <script>alert(1)</script>',
  '<script>window.__pwned = 1</script>',
  '',
  'Inline <img src=x onerror="window.__pwned=2"> and <b onmouseover=alert(3)>bold</b>.',
  '',
  '<iframe srcdoc="<script>parent.__pwned=4</script>"></iframe>',
  '',
  '[js](javascript:alert(5)) [enc](&#106;avascript:alert(6)) [data](data:text/html;base64,PHNjcmlwdD4=)',
  '',
  '![x](https://evil.example/track.png) ![y](javascript:alert(7))',
  '',
  '<svg onload=alert(8)><foreignObject><body onload=alert(9)></body></foreignObject></svg>',
  '',
  '| a <style>*{display:none}</style> |',
  '|---|',
  '| <a href="javascript:alert(10)">x</a> |',
].join('\n');

describe('MarkdownBody', () => {
  it('renders hostile content as inert text', () => {
    const html = render(HOSTILE);
    // the only elements are the renderer's own
    const tags = new Set([...html.matchAll(/<([a-z0-9]+)[\s>/]/g)].map((m) => m[1]));
    const allowed = new Set([
      'h1',
      'h2',
      'p',
      'code',
      'pre',
      'a',
      'span',
      'div',
      'table',
      'thead',
      'tbody',
      'tr',
      'th',
      'td',
      'em',
      'strong',
    ]);
    for (const tag of tags) expect(allowed.has(tag), `element <${tag}>`).toBe(true);
    expect(html).not.toMatch(/<(script|img|iframe|svg|style|b|body|foreignobject)\b/i);
    // only the renderer's own attributes (a handler's name appears in the escaped text, never as an attribute)
    const attributes = new Set(
      [...html.matchAll(/<[a-z0-9]+((?:\s[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)].flatMap((m) =>
        [...m[1].matchAll(/\s([^\s=]+)(?:="[^"]*")?/g)].map((a) => a[1]),
      ),
    );
    expect([...attributes].sort()).toEqual([
      'class',
      'href',
      'id',
      'rel',
      'scope',
      'tabindex',
      'target',
      'title',
    ]);
    // the raw HTML is there, as text
    expect(html).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;');
    // every href: http(s), an app address, or a heading
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(['https://evil.example/track.png']);
    expect(html).toContain('rel="noreferrer noopener"');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('[image: x]');
  });

  it('links repository files to their address in the app, and headings to their prefixed ids', () => {
    const html = render(
      '## Setup\n\nSee [the code](../src/app.ts#L4), [setup](#setup) and [mail](mailto:a@b.c).',
    );
    expect(html).toContain('<h2 id="md-setup" tabindex="-1">Setup</h2>');
    expect(html).toContain('href="/?file=src%2Fapp.ts&amp;line=4"');
    expect(html).toContain('data-repo-path="src/app.ts"');
    expect(html).toContain('href="#md-setup"');
    expect(html).toContain('href="mailto:a@b.c" rel="noreferrer noopener"');
    // internal links stay in the tab
    expect(html.match(/target="_blank"/g)).toBeNull();
  });

  it('shows task lists, tables and code blocks', () => {
    const html = render(
      '- [x] done\n- [ ] todo\n\n| a | b |\n|:-:|--|\n| 1 | 2 |\n\n```ts\nconst a = 1;\n```',
    );
    expect(html).toContain('<input type="checkbox" disabled="" aria-label="Done" checked=""/>');
    expect(html).toContain('<th scope="col" style="text-align:center">a</th>');
    expect(html).toMatch(/<pre class="md-code" data-lang="ts"><code>.*const.*<\/code><\/pre>/);
  });
});
