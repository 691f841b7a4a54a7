/**
 * The Related panel beside the viewer, resizable (a splitter before it) and collapsible (a
 * button in its header; collapsed, a thin rail with a button brings it back). Both are kept
 * with the pane sizes (pane-layout.ts), so they survive a reload. Collapsed, it asks nothing
 * of the engine.
 */
import { useSyncExternalStore, type ComponentProps } from 'react';
import { RelatedPanel } from '../RelatedPanel';
import { paneLayout } from '../shell/pane-layout';
import { Splitter } from '../shell/Splitter';

const Chevron = ({ towards }: { towards: 'left' | 'right' }) => (
  <svg viewBox="0 0 10 10" width="10" height="10" aria-hidden="true" focusable="false">
    <path d={towards === 'right' ? 'M3 1.5l4 3.5-4 3.5z' : 'M7 1.5l-4 3.5 4 3.5z'} />
  </svg>
);

/** The splitter before the viewer's side panel (Related code, or navigation results). */
export function SidePaneSplitter() {
  return <Splitter pane="related" label="Resize the side panel" />;
}

export function RelatedPane(props: ComponentProps<typeof RelatedPanel>) {
  const layout = paneLayout();
  const collapsed = useSyncExternalStore(layout.subscribe, () => layout.relatedCollapsed);
  if (collapsed)
    return (
      <div className="related-rail" data-testid="related-rail">
        <button
          type="button"
          className="pane-toggle"
          aria-expanded={false}
          aria-label="Show related code"
          title="Show the Related code panel"
          onClick={() => layout.setRelatedCollapsed(false)}
        >
          <Chevron towards="left" />
          <span className="rail-label" aria-hidden="true">
            Related
          </span>
        </button>
      </div>
    );
  return (
    <>
      <SidePaneSplitter />
      <RelatedPanel
        {...props}
        headerAction={
          <button
            type="button"
            className="pane-toggle"
            aria-expanded={true}
            aria-label="Hide related code"
            title="Hide the Related code panel (the viewer gets its room)"
            onClick={() => layout.setRelatedCollapsed(true)}
          >
            <Chevron towards="right" />
          </button>
        }
      />
    </>
  );
}
