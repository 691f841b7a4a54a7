/**
 * The viewer's column: what the open file is shown as (its text, a diff, blame, a rendered
 * Markdown page, an image) and the panels beside it (related code, navigation results).
 * Which one is chosen by the address (ViewState), so a link restores it.
 */
import type { FileHighlight } from '../../worker/protocol';
import { FileViewer } from '../FileViewer';
import { RelatedPanel } from '../RelatedPanel';
import type { ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';

export interface ViewerColumnProps {
  view: ViewState;
  update: UpdateView;
  repoKey: string;
  highlight: FileHighlight | null;
  indexReady: boolean;
  indexVersion: number;
}

export function ViewerColumn({ view, update, repoKey, highlight, indexReady, indexVersion }: ViewerColumnProps) {
  return (
    <div className="viewer-column">
      <FileViewer path={view.file} line={view.line} highlight={highlight} repoKey={repoKey} onLine={(line) => update({ line })} />
      <RelatedPanel path={view.file} line={view.line} indexReady={indexReady} indexVersion={indexVersion} onOpen={(file, line) => update({ file, line }, { push: true })} />
    </div>
  );
}
