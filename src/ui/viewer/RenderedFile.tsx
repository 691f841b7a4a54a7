/**
 * A file the viewer shows rendered rather than as text: a Markdown page (MarkdownView) or a
 * picture (ImageView), and the Preview / Source switch for the files that have both (Markdown,
 * SVG). `useRendering` says which, from the address (`md`, `line`; a diff or blame is always text).
 */
import type { ReactNode } from 'react';
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { hasSource, showsRendered, viewerKind } from './file-kind';
import { ImageView } from './ImageView';
import { MarkdownView } from './MarkdownView';
import { RenderToggle } from './RenderToggle';

export function useRendering(view: ViewState, update: UpdateView): { rendered: boolean; toolbar: ReactNode } {
  const plain = !!view.diff || view.blame;
  const rendered = !plain && showsRendered(view.file, view.md, view.line);
  const toolbar =
    !plain && hasSource(view.file) ? (
      <RenderToggle
        rendered={rendered}
        renderedLabel={viewerKind(view.file) === 'image' ? 'Image' : 'Preview'}
        // back to the page: from its top (a line belongs to the source)
        onChange={(r) => update(r ? { md: 'rendered', line: 0 } : { md: 'source' })}
      />
    ) : undefined;
  return { rendered, toolbar };
}

export function RenderedFile({
  view,
  update,
  repoKey,
  toolbar,
}: {
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  toolbar?: ReactNode;
}) {
  return viewerKind(view.file) === 'image' ? (
    <ImageView path={view.file} repoKey={repoKey} toolbar={toolbar} />
  ) : (
    <MarkdownView path={view.file} view={view} update={update} repoKey={repoKey} toolbar={toolbar} />
  );
}
