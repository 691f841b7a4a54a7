/**
 * Components: every React component of the repository (find_components), in a table with
 * name, kind, file and uses. A name or file opens the definition in the viewer at its line;
 * the uses expand to the places that render the component. The filter lives in the URL (cq).
 */
import { useMemo } from 'react';
import type { FindComponentsResult } from '../../core/tools/find-components';
import { formatCount, plural } from '../format';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import {
  Badge,
  EmptyNote,
  ErrorNote,
  FileLink,
  Loading,
  matchesText,
  PathText,
  type ViewProps,
} from './parts';
import { useDebouncedDraft, useTool } from './use-tool';

type Component = FindComponentsResult['components'][number];

const KIND_TEXT: Record<string, string> = {
  function: 'function',
  arrow: 'arrow',
  class: 'class',
  memo: 'memo',
  forwardRef: 'forwardRef',
};

const NO_ARGS = {};

export function ComponentsView({ view, update, repoKey }: ViewProps) {
  const [state, retry] = useTool<FindComponentsResult>('find_components', NO_ARGS, repoKey);
  const [draft, setDraft] = useDebouncedDraft(view.cq, (cq) => update({ cq }));

  const all = useMemo(() => (state.state === 'ready' ? state.value.components : []), [state]);
  const shown = useMemo(
    () => all.filter((c) => matchesText(view.cq, c.name, c.path, c.kind)),
    [all, view.cq],
  );

  return (
    <section className="view-panel" aria-labelledby="components-title" data-testid="components-view">
      <div className="view-head">
        <h2 id="components-title">Components</h2>
        <div className="view-controls" role="search" aria-label="Filter components">
          <input
            type="search"
            aria-label="Filter components"
            placeholder="Filter by name, file or kind"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            spellCheck={false}
          />
        </div>
        {state.state === 'ready' && (
          <p className="view-summary" data-testid="view-summary" aria-live="polite">
            {view.cq ? `${formatCount(shown.length)} of ` : ''}
            {plural(all.length, 'component')} · {plural(state.value.filesScanned, 'script file')} parsed
            {state.value.skipped.length > 0 &&
              ` · ${plural(state.value.skipped.length, 'file')} could not be parsed`}
          </p>
        )}
      </div>
      <div className="view-body">
        {state.state === 'loading' && (
          <Loading>Finding React components… (the parser loads on first use)</Loading>
        )}
        {state.state === 'error' && (
          <ErrorNote error={state.error} what="find the components" onRetry={retry} />
        )}
        {state.state === 'ready' && all.length === 0 && (
          <EmptyNote title="No React components found.">
            <p>
              A component is a capitalised function or class that returns JSX, in a .tsx, .jsx, .ts or .js
              file. Open another folder, or use Search to look for something else.
            </p>
          </EmptyNote>
        )}
        {state.state === 'ready' && all.length > 0 && shown.length === 0 && (
          <EmptyNote title={`No component matches “${visibleText(view.cq)}”.`}>
            <button type="button" onClick={() => update({ cq: '' })}>
              Clear the filter
            </button>
          </EmptyNote>
        )}
        {shown.length > 0 && (
          <table className="view-table components-table" aria-label="Components">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Kind</th>
                <th scope="col">File</th>
                <th scope="col" className="num">
                  Uses
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((c) => (
                <ComponentRow key={`${c.path}:${c.line}:${c.name}`} c={c} view={view} update={update} />
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

function ComponentRow({
  c,
  view,
  update,
}: {
  c: Component;
  view: ViewProps['view'];
  update: ViewProps['update'];
}) {
  return (
    <tr data-testid="component-row">
      <th scope="row" className="name-cell">
        <FileLink view={view} update={update} path={c.path} line={c.line}>
          <VisibleText text={c.name} />
        </FileLink>
      </th>
      <td>
        <span className="badges">
          <Badge kind={c.kind}>{KIND_TEXT[c.kind] ?? c.kind}</Badge>
          {c.default && <Badge kind="plain">default</Badge>}
          {!c.exported && (
            <Badge kind="muted" title="Not exported from its file">
              local
            </Badge>
          )}
        </span>
      </td>
      <td className="path-cell">
        <PathText path={c.path} line={c.line} />
      </td>
      <td className="num uses-cell">
        {c.uses.count === 0 ? (
          <span className="muted" data-testid="uses-count">
            0
          </span>
        ) : (
          <details>
            <summary
              aria-label={`${plural(c.uses.count, 'use')} of ${visibleText(c.name)}`}
              data-testid="uses-count"
            >
              {formatCount(c.uses.count)}
            </summary>
            <ul className="uses-list" aria-label={`Uses of ${visibleText(c.name)}`}>
              {c.uses.places.map((u) => (
                <li key={`${u.path}:${u.line}`}>
                  <FileLink view={view} update={update} path={u.path} line={u.line}>
                    <VisibleText text={u.path} />:{u.line}
                  </FileLink>
                </li>
              ))}
              {c.uses.count > c.uses.places.length && (
                <li className="muted">and {formatCount(c.uses.count - c.uses.places.length)} more</li>
              )}
            </ul>
          </details>
        )}
      </td>
    </tr>
  );
}
