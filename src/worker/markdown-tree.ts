/**
 * A Markdown document as a small tree of plain data that the viewer turns into React elements
 * (MarkdownView.tsx): `marked`'s lexer only (its HTML renderer is never used), each token
 * mapped to one of a fixed set of node types. Nothing in the tree is markup: raw HTML becomes an
 * 'html' node shown as text, every link and image destination is classified (markdown-links.ts),
 * and text has its character references decoded so React shows it as a browser would.
 *
 * It runs in the engine worker: the lexer takes ~0.25 ms per KB (far more on hostile input),
 * too long for the main thread. Nesting deeper than MAX_MARKDOWN_DEPTH is flattened to text,
 * and a document that overflows the lexer's own recursion is refused with a clear error.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { QuarryError } from '../core/errors';
import { decodeEntities, linkTarget, slugify, type LinkTarget } from './markdown-links';

export type { LinkTarget } from './markdown-links';

/** Markdown larger than this is shown as its source (the lexer is not time-sliced). */
export const MARKDOWN_MAX_BYTES = 256 * 1024;
/** Blocks and inline spans nested deeper than this are shown as their text. */
export const MAX_MARKDOWN_DEPTH = 32;

export type MdInline =
  | { t: 'text'; text: string }
  | { t: 'strong' | 'em' | 'del'; children: MdInline[] }
  | { t: 'code'; text: string }
  | { t: 'br' }
  /** Raw HTML in the source: shown as text, never parsed. */
  | { t: 'html'; text: string }
  | { t: 'link'; target: LinkTarget; title: string; children: MdInline[] }
  | { t: 'image'; target: LinkTarget; alt: string; title: string };

export type MdAlign = 'left' | 'center' | 'right' | null;

export interface MdListItem {
  /** A task list item's checkbox (null: not a task). */
  checked: boolean | null;
  children: MdBlock[];
}

export type MdBlock =
  | { t: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; id: string; children: MdInline[] }
  | { t: 'paragraph'; children: MdInline[] }
  /** Inline content without a paragraph's margins (a tight list item's text). */
  | { t: 'plain'; children: MdInline[] }
  | { t: 'code'; lang: string; text: string }
  | { t: 'quote'; children: MdBlock[] }
  | { t: 'list'; ordered: boolean; start: number; items: MdListItem[] }
  | { t: 'table'; align: MdAlign[]; head: MdInline[][]; rows: MdInline[][][] }
  | { t: 'hr' }
  | { t: 'html'; text: string };

export interface MarkdownDocument {
  path: string;
  bytes: number;
  blocks: MdBlock[];
}

interface Context {
  from: string;
  root: string;
  /** Slugs given so far (a repeated heading gets -1, -2...). */
  slugs: Map<string, number>;
}

const textOf = (raw: string | undefined): MdInline[] => (raw ? [{ t: 'text', text: raw }] : []);

function inlines(tokens: Token[] | undefined, ctx: Context, depth: number): MdInline[] {
  const out: MdInline[] = [];
  for (const token of tokens ?? []) out.push(...inline(token, ctx, depth));
  return out;
}

function inline(token: Token, ctx: Context, depth: number): MdInline[] {
  if (depth > MAX_MARKDOWN_DEPTH) return textOf(token.raw);
  switch (token.type) {
    case 'text': {
      const t = token as Tokens.Text;
      return t.tokens?.length
        ? inlines(t.tokens, ctx, depth + 1)
        : [{ t: 'text', text: decodeEntities(t.text) }];
    }
    case 'escape':
      return [{ t: 'text', text: (token as Tokens.Escape).text }];
    case 'strong':
    case 'em':
    case 'del':
      return [{ t: token.type, children: inlines((token as Tokens.Strong).tokens, ctx, depth + 1) }];
    case 'codespan':
      return [{ t: 'code', text: (token as Tokens.Codespan).text }];
    case 'br':
      return [{ t: 'br' }];
    case 'html':
      return [{ t: 'html', text: (token as Tokens.HTML).text }];
    case 'link': {
      const l = token as Tokens.Link;
      return [
        {
          t: 'link',
          target: linkTarget(l.href, ctx.from, ctx.root),
          title: decodeEntities(l.title ?? ''),
          children: inlines(l.tokens, ctx, depth + 1),
        },
      ];
    }
    case 'image': {
      const i = token as Tokens.Image;
      return [
        {
          t: 'image',
          target: linkTarget(i.href, ctx.from, ctx.root),
          alt: decodeEntities(i.text),
          title: decodeEntities(i.title ?? ''),
        },
      ];
    }
    case 'checkbox':
      return [];
    default:
      // an unknown token (none with the default lexer): its source, as text
      return textOf(token.raw);
  }
}

/** The plain text of inline nodes (a heading's slug, an image's alt). */
function plainText(nodes: MdInline[]): string {
  let s = '';
  for (const n of nodes) {
    if (n.t === 'text' || n.t === 'code' || n.t === 'html') s += n.text;
    else if (n.t === 'image') s += n.alt;
    else if ('children' in n) s += plainText(n.children);
  }
  return s;
}

function headingId(nodes: MdInline[], ctx: Context): string {
  const base = slugify(plainText(nodes)) || 'section';
  const seen = ctx.slugs.get(base) ?? 0;
  ctx.slugs.set(base, seen + 1);
  return seen ? `${base}-${seen}` : base;
}

function blocks(tokens: Token[] | undefined, ctx: Context, depth: number): MdBlock[] {
  const out: MdBlock[] = [];
  for (const token of tokens ?? []) {
    const b = block(token, ctx, depth);
    if (b) out.push(b);
  }
  return out;
}

function block(token: Token, ctx: Context, depth: number): MdBlock | null {
  if (depth > MAX_MARKDOWN_DEPTH)
    return token.raw?.trim() ? { t: 'paragraph', children: textOf(token.raw) } : null;
  switch (token.type) {
    case 'space':
    case 'def':
    case 'checkbox': // a task item's box: the item's `checked`
      return null;
    case 'heading': {
      const h = token as Tokens.Heading;
      const children = inlines(h.tokens, ctx, depth + 1);
      return {
        t: 'heading',
        level: Math.min(6, Math.max(1, h.depth)) as 1 | 2 | 3 | 4 | 5 | 6,
        id: headingId(children, ctx),
        children,
      };
    }
    case 'paragraph':
      return { t: 'paragraph', children: inlines((token as Tokens.Paragraph).tokens, ctx, depth + 1) };
    case 'text': {
      const t = token as Tokens.Text;
      return {
        t: 'plain',
        children: t.tokens?.length
          ? inlines(t.tokens, ctx, depth + 1)
          : [{ t: 'text', text: decodeEntities(t.text) }],
      };
    }
    case 'code': {
      const c = token as Tokens.Code;
      return { t: 'code', lang: (c.lang ?? '').split(/\s/)[0].slice(0, 40), text: c.text };
    }
    case 'blockquote':
      return { t: 'quote', children: blocks((token as Tokens.Blockquote).tokens, ctx, depth + 1) };
    case 'list': {
      const l = token as Tokens.List;
      const start = typeof l.start === 'number' && Number.isFinite(l.start) ? l.start : 1;
      return {
        t: 'list',
        ordered: l.ordered,
        start,
        items: l.items.map((item) => ({
          checked: item.task ? !!item.checked : null,
          children: blocks(item.tokens, ctx, depth + 1),
        })),
      };
    }
    case 'table': {
      const tb = token as Tokens.Table;
      return {
        t: 'table',
        align: tb.align.map((a) => (a === 'left' || a === 'center' || a === 'right' ? a : null)),
        head: tb.header.map((cell) => inlines(cell.tokens, ctx, depth + 1)),
        rows: tb.rows.map((row) => row.map((cell) => inlines(cell.tokens, ctx, depth + 1))),
      };
    }
    case 'hr':
      return { t: 'hr' };
    case 'html':
      return { t: 'html', text: (token as Tokens.HTML).text.replace(/\n+$/, '') };
    default:
      return token.raw?.trim() ? { t: 'paragraph', children: textOf(token.raw) } : null;
  }
}

/**
 * `text` (the Markdown file at workspace path `path`) as a tree. `root` is the prefix of the
 * file's workspace root ('' for a single root): links starting with '/' start there.
 */
export function markdownTree(text: string, path: string, root = ''): MdBlock[] {
  let tokens: Token[];
  try {
    // GitHub-flavoured: tables, task lists, strikethrough, autolinks
    tokens = new Lexer({ gfm: true, breaks: false }).lex(text);
  } catch (err) {
    if (err instanceof RangeError)
      throw new QuarryError('Unreadable', `"${path}" nests too deeply to be shown rendered`, { path });
    throw err;
  }
  return blocks(tokens, { from: path, root, slugs: new Map() }, 0);
}

/** The whole document, refused (with the reason) over MARKDOWN_MAX_BYTES. */
export function markdownDocument(text: string, bytes: number, path: string, root = ''): MarkdownDocument {
  if (bytes > MARKDOWN_MAX_BYTES) {
    throw new QuarryError(
      'Unreadable',
      `"${path}" is ${Math.round(bytes / 1024)} KB: Markdown over ${MARKDOWN_MAX_BYTES / 1024} KB is shown as its source`,
      {
        path,
        reason: 'tooLarge',
        bytes,
        limit: MARKDOWN_MAX_BYTES,
      },
    );
  }
  return { path, bytes, blocks: markdownTree(text, path, root) };
}
