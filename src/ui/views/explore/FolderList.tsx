/**
 * The folders of a large import graph, in the side panel: the keyboard's way to what a click on
 * a folder does on the canvas. Each folder is a button that expands it into its files (or
 * collapses it: aria-expanded says which), with its size and its marks (hub, in a runtime
 * cycle). Hubs come first, the most imported first, then folders with cycles, then the rest in
 * path order. Folder names are React text only.
 */
import type { FolderIndex } from '../../../core/explore/graph-folders';
import { formatCount, plural } from '../../format';
import { VisibleText } from '../../VisibleText';
import { Badge } from '../parts';

export function FolderList({
  index,
  expanded,
  onToggle,
  onCollapseAll,
}: {
  index: FolderIndex;
  expanded: ReadonlySet<string>;
  onToggle: (folder: string) => void;
  onCollapseAll: () => void;
}) {
  const folders = [...index.folders.values()].sort(
    (a, b) =>
      Number(b.hub) - Number(a.hub) ||
      (a.hub && b.hub ? b.fanIn - a.fanIn : 0) ||
      Number(b.cycle) - Number(a.cycle),
  );
  return (
    <section className="graph-folders" aria-label="Folders">
      <h4>
        Folders ({formatCount(folders.length)})
        {expanded.size > 0 && (
          <button type="button" className="link graph-collapse-all" onClick={onCollapseAll}>
            Collapse all
          </button>
        )}
      </h4>
      <ul>
        {folders.map((f) => (
          <li key={f.id} data-folder={f.id}>
            <button
              type="button"
              className="link mono"
              aria-expanded={expanded.has(f.id)}
              onClick={() => onToggle(f.id)}
              title={expanded.has(f.id) ? 'Draw this folder as one node' : 'Draw the files of this folder'}
            >
              <span aria-hidden="true">{expanded.has(f.id) ? '▾ ' : '▸ '}</span>
              <VisibleText text={f.label} />
            </button>
            <span className="muted">
              {plural(f.members.length, f.external ? 'package' : 'file')}
              {!f.external && f.fanIn > 0 && `, imported by ${plural(f.fanIn, 'file')} elsewhere`}
            </span>
            {f.hub && <Badge kind="hub">hub</Badge>}
            {f.cycle && <Badge kind="cycle">cycle</Badge>}
          </li>
        ))}
      </ul>
    </section>
  );
}
