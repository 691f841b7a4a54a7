/**
 * A Markdown tree (worker/markdown-tree.ts) as React elements, TEXT ONLY: every node type maps
 * to one fixed element, every string is a React text child (never markup), raw HTML is shown as
 * text in a muted box, and only the attributes set here exist (an href already classified by the
 * worker, a prefixed id, a title as text). Links: http(s) in a new tab with rel="noreferrer
 * noopener", mailto as is, files of the repository opened in the viewer, headings scrolled to;
 * anything else is plain text. Images: files of the repository shown from their own bytes
 * (blob: URLs), external ones as a link that is never loaded.
 */
import { Fragment, type MouseEvent, type ReactNode } from 'react';
import type { LinkTarget, MdBlock, MdInline } from '../../worker/protocol';
import { CodeText } from '../CodeText';
import { languageOf } from '../highlight';
import { useFileBlob } from './use-file-blob';

export interface MarkdownLinks {
  /** Open a repository file in the viewer (a plain left click). */
  openFile: (path: string, line: number) => void;
  /** The address of that file in the app, for the link's href (open in a new tab, copy link). */
  hrefFor: (path: string, line: number) => string;
  /** The repository (refetches images when it changes). */
  repoKey: string;
}

/** Heading ids are prefixed: content can never name (and so clobber) an id or global of the app. */
export const MD_ID_PREFIX = 'md-';

const plainClick = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

function scrollToHeading(e: MouseEvent<HTMLAnchorElement>, id: string) {
  e.preventDefault();
  const root = e.currentTarget.closest('.md-body');
  const target = root?.querySelector(`[id="${CSS.escape(MD_ID_PREFIX + id)}"]`);
  if (target instanceof HTMLElement) {
    target.scrollIntoView({ block: 'start' });
    target.focus({ preventScroll: true });
  }
}

function Link({
  target,
  title,
  links,
  children,
}: {
  target: LinkTarget;
  title: string;
  links: MarkdownLinks;
  children: ReactNode;
}) {
  switch (target.kind) {
    case 'external':
      return (
        <a
          href={target.href}
          target="_blank"
          rel="noreferrer noopener"
          title={title || `${target.href} (opens in a new tab)`}
          className="md-external"
        >
          {children}
        </a>
      );
    case 'mailto':
      return (
        <a href={target.href} rel="noreferrer noopener" title={title || target.href}>
          {children}
        </a>
      );
    case 'repo':
      return (
        <a
          href={links.hrefFor(target.path, target.line)}
          title={title || `Open ${target.path}${target.line ? ` at line ${target.line}` : ''}`}
          data-repo-path={target.path}
          onClick={(e) => {
            if (!plainClick(e)) return;
            e.preventDefault();
            links.openFile(target.path, target.line);
          }}
        >
          {children}
        </a>
      );
    case 'anchor':
      return (
        <a
          href={`#${MD_ID_PREFIX}${target.id}`}
          title={title || undefined}
          onClick={(e) => scrollToHeading(e, target.id)}
        >
          {children}
        </a>
      );
    default:
      return (
        <span className="md-blocked" title={`Link not followed: ${target.href}`}>
          {children}
        </span>
      );
  }
}

/** A picture from the repository's own bytes; a missing or unreadable one says so in its place. */
function RepoImage({
  path,
  alt,
  title,
  repoKey,
}: {
  path: string;
  alt: string;
  title: string;
  repoKey: string;
}) {
  const blob = useFileBlob(path, repoKey);
  if (blob.state === 'ready')
    return <img className="md-img" src={blob.url} alt={alt} title={title || undefined} />;
  if (blob.state === 'loading') return <span className="md-img-note">{alt || path}</span>;
  return (
    <span className="md-img-note" title={blob.error.message}>
      [image: {alt || path} — {blob.error.code === 'NotFound' ? 'not in this repository' : 'not shown'}]
    </span>
  );
}

function Image({ node, links }: { node: Extract<MdInline, { t: 'image' }>; links: MarkdownLinks }) {
  const { target, alt, title } = node;
  if (target.kind === 'repo')
    return <RepoImage path={target.path} alt={alt} title={title} repoKey={links.repoKey} />;
  if (target.kind === 'external')
    // never loaded: the app makes no request of its own
    return (
      <a
        href={target.href}
        target="_blank"
        rel="noreferrer noopener"
        className="md-ext-image"
        title={`${target.href} (an external image, not loaded)`}
      >
        [image: {alt || target.href}]
      </a>
    );
  return (
    <span className="md-img-note" title={`Image not shown: ${target.kind === 'blocked' ? target.href : ''}`}>
      [image: {alt || 'not shown'}]
    </span>
  );
}

export function Inlines({ nodes, links }: { nodes: MdInline[]; links: MarkdownLinks }): ReactNode {
  return nodes.map((n, i) => {
    switch (n.t) {
      case 'text':
        return <Fragment key={i}>{n.text}</Fragment>;
      case 'strong':
        return (
          <strong key={i}>
            <Inlines nodes={n.children} links={links} />
          </strong>
        );
      case 'em':
        return (
          <em key={i}>
            <Inlines nodes={n.children} links={links} />
          </em>
        );
      case 'del':
        return (
          <del key={i}>
            <Inlines nodes={n.children} links={links} />
          </del>
        );
      case 'code':
        return <code key={i}>{n.text}</code>;
      case 'br':
        return <br key={i} />;
      case 'html':
        return (
          <code key={i} className="md-html" title="HTML in the file, shown as text">
            {n.text}
          </code>
        );
      case 'link':
        return (
          <Link key={i} target={n.target} title={n.title} links={links}>
            <Inlines nodes={n.children} links={links} />
          </Link>
        );
      case 'image':
        return <Image key={i} node={n} links={links} />;
      default:
        return null;
    }
  });
}

function CodeBlock({ lang, text }: { lang: string; text: string }) {
  const language = languageOf(`x.${lang || 'txt'}`);
  const lines = text.split('\n');
  return (
    <pre className="md-code" data-lang={lang || undefined}>
      <code>
        {lines.map((line, i) => (
          <Fragment key={i}>
            <CodeText text={line} lang={language} />
            {i < lines.length - 1 ? '\n' : null}
          </Fragment>
        ))}
      </code>
    </pre>
  );
}

export function Blocks({ blocks, links }: { blocks: MdBlock[]; links: MarkdownLinks }): ReactNode {
  return blocks.map((b, i) => {
    switch (b.t) {
      case 'heading': {
        const H = `h${b.level}` as const;
        return (
          <H key={i} id={MD_ID_PREFIX + b.id} tabIndex={-1}>
            <Inlines nodes={b.children} links={links} />
          </H>
        );
      }
      case 'paragraph':
        return (
          <p key={i}>
            <Inlines nodes={b.children} links={links} />
          </p>
        );
      case 'plain':
        return (
          <Fragment key={i}>
            <Inlines nodes={b.children} links={links} />
          </Fragment>
        );
      case 'code':
        return <CodeBlock key={i} lang={b.lang} text={b.text} />;
      case 'quote':
        return (
          <blockquote key={i}>
            <Blocks blocks={b.children} links={links} />
          </blockquote>
        );
      case 'list': {
        const items = b.items.map((item, j) => (
          <li key={j} className={item.checked === null ? undefined : 'md-task'}>
            {item.checked !== null && (
              <input
                type="checkbox"
                checked={item.checked}
                disabled
                aria-label={item.checked ? 'Done' : 'Not done'}
              />
            )}
            <Blocks blocks={item.children} links={links} />
          </li>
        ));
        return b.ordered ? (
          <ol key={i} start={b.start === 1 ? undefined : b.start}>
            {items}
          </ol>
        ) : (
          <ul key={i}>{items}</ul>
        );
      }
      case 'table':
        return (
          <div key={i} className="md-table-wrap">
            <table>
              <thead>
                <tr>
                  {b.head.map((cell, j) => (
                    <th key={j} scope="col" style={b.align[j] ? { textAlign: b.align[j] } : undefined}>
                      <Inlines nodes={cell} links={links} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {b.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, j) => (
                      <td key={j} style={b.align[j] ? { textAlign: b.align[j] } : undefined}>
                        <Inlines nodes={cell} links={links} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      case 'hr':
        return <hr key={i} />;
      case 'html':
        return (
          <pre key={i} className="md-html" title="HTML in the file, shown as text">
            {b.text}
          </pre>
        );
      default:
        return null;
    }
  });
}
