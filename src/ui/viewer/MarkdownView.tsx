/**
 * A Markdown file rendered: the engine parses it in the worker into a tree of plain data
 * (readMarkdown), MarkdownBody turns that into text-only elements. As the viewer (a bar with the
 * path and the Preview / Source switch) or embedded (the repository's README under the overview
 * while no file is open). A file too large or too deeply nested to render says so and offers its
 * source.
 */
import { memo, startTransition, useEffect, useMemo, useState, type ReactNode } from 'react';
import { toQuarryError, type QuarryError } from '../../core/errors';
import type { MarkdownDocument, MdBlock } from '../../worker/protocol';
import { useEngine } from '../engine';
import { formatBytes } from '../format';
import { serializeViewState, type ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import { Blocks, type MarkdownLinks } from './MarkdownBody';
import { partsOf, useProgressiveCount } from './use-progressive';
import './viewer.css';

type Loaded =
  | { state: 'loading' }
  | { state: 'ready'; doc: MarkdownDocument; repoKey: string }
  | { state: 'error'; error: QuarryError };

export function useMarkdown(path: string, repoKey: string): Loaded {
  const engine = useEngine();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    // the same file of the same repository stays on screen while it is read again; another repository's never does
    setLoaded((prev) =>
      prev.state === 'ready' && prev.doc.path === path && prev.repoKey === repoKey
        ? prev
        : { state: 'loading' },
    );
    engine.readMarkdown(path).then(
      (doc) => current && startTransition(() => setLoaded({ state: 'ready', doc, repoKey })),
      (err) => current && setLoaded({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      current = false;
    };
  }, [engine, path, repoKey]);
  return loaded;
}

/** Links out of a rendered document: a repository file opens in the viewer (its own address as the href). */
export function markdownLinks(view: ViewState, update: UpdateView, repoKey: string): MarkdownLinks {
  const target = (file: string, line: number) => ({
    file,
    line,
    diff: '',
    blame: false,
    md: 'rendered' as const,
  });
  return {
    repoKey,
    openFile: (file, line) => update(target(file, line), { push: true }),
    hrefFor: (file, line) => `${location.pathname}${serializeViewState({ ...view, ...target(file, line) })}`,
  };
}

/** Top-level blocks rendered together (a part is rendered, and re-rendered, as one). */
const PART_BLOCKS = 24;

const BlockPart = memo(function BlockPart({ blocks, links }: { blocks: MdBlock[]; links: MarkdownLinks }) {
  return <Blocks blocks={blocks} links={links} />;
});

/** A document's blocks, the first part at once and the rest while the page is idle (use-progressive.ts). */
function ProgressiveBlocks({ blocks, links }: { blocks: MdBlock[]; links: MarkdownLinks }) {
  const parts = useMemo(() => partsOf(blocks, PART_BLOCKS), [blocks]);
  const shown = useProgressiveCount(parts.length, blocks);
  return parts.slice(0, shown).map((part, i) => <BlockPart key={i} blocks={part} links={links} />);
}

export function MarkdownView({
  path,
  view,
  update,
  repoKey,
  toolbar,
}: {
  path: string;
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  /** The Preview / Source switch (and whatever else the column adds). */
  toolbar?: ReactNode;
}) {
  const loaded = useMarkdown(path, repoKey);
  const links = useMemo(() => markdownLinks(view, update, repoKey), [view, update, repoKey]);
  return (
    <section
      className="viewer markdown-view"
      role="region"
      aria-label={visibleText(path)}
      data-testid="markdown-view"
    >
      <header className="viewer-bar">
        <h2 className="viewer-path" title={visibleText(path)}>
          <VisibleText text={path} />
        </h2>
        {loaded.state === 'ready' && (
          <span className="viewer-meta">Markdown · {formatBytes(loaded.doc.bytes)}</span>
        )}
        {toolbar}
      </header>
      {loaded.state === 'loading' && (
        <p className="panel-note">
          Opening <VisibleText text={path} />…
        </p>
      )}
      {loaded.state === 'error' && (
        <div className="panel-note" role="alert">
          <p>
            <strong>Cannot show this file rendered.</strong>{' '}
            <VisibleText text={loaded.error.message} multiline />
          </p>
          {loaded.error.code !== 'NotFound' && (
            <p>
              <button type="button" onClick={() => update({ md: 'source' })}>
                Show the source
              </button>
            </p>
          )}
        </div>
      )}
      {loaded.state === 'ready' && (
        <div
          className="md-scroll"
          tabIndex={0}
          aria-label={`Rendered ${visibleText(path)}`}
          data-testid="markdown-body"
        >
          <article className="md-body">
            <ProgressiveBlocks blocks={loaded.doc.blocks} links={links} />
          </article>
        </div>
      )}
    </section>
  );
}

/** The repository's README, rendered under the overview (nothing while it loads; a short note if it cannot be read). */
export function ReadmePreview({
  path,
  view,
  update,
  repoKey,
}: {
  path: string;
  view: ViewState;
  update: UpdateView;
  repoKey: string;
}) {
  const loaded = useMarkdown(path, repoKey);
  const links = useMemo(() => markdownLinks(view, update, repoKey), [view, update, repoKey]);
  if (loaded.state === 'loading') return null;
  return (
    <section className="readme-preview" aria-labelledby="readme-title" data-testid="readme-preview">
      <h2 id="readme-title" className="readme-title">
        <a
          href={links.hrefFor(path, 0)}
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            links.openFile(path, 0);
          }}
        >
          <VisibleText text={path} />
        </a>
      </h2>
      {loaded.state === 'error' ? (
        <p className="muted">
          <VisibleText text={loaded.error.message} multiline />
        </p>
      ) : (
        <article className="md-body">
          <ProgressiveBlocks blocks={loaded.doc.blocks} links={links} />
        </article>
      )}
    </section>
  );
}
