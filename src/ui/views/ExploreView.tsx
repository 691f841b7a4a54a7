/**
 * Explore: the first screen of an unfamiliar repository — explore's report as a page. The
 * summary, key files, dependencies, patterns (each example opens the viewer at its line),
 * the focus search, the drawn import graph and the git history, streamed analyzer by analyzer
 * with each one's progress, cancellable, exported as Markdown or JSON. The explored folder,
 * the focus and the depth live in the URL. Repository text is rendered as text only.
 */
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { exploreMarkdown } from '../../core/explore/markdown';
import { analyzersFor } from '../../core/explore/analyzers';
import type { AnalyzerName, ExploreResult } from '../../core/explore/types';
import { formatCount, plural } from '../format';
import { VisibleText } from '../VisibleText';
import type { ExploreDepthKey } from '../url-state';
import { ExploreDetails } from './ExploreDetails';
import { Badge, ErrorNote, FileLink, type ViewProps } from './parts';
import { useExplore } from './use-explore';
import { useDebouncedDraft } from './use-tool';

const ImportGraph = lazy(() => import('./explore/ImportGraph').then((m) => ({ default: m.ImportGraph })));

const ANALYZER_LABEL: Record<AnalyzerName, string> = {
  tree: 'Tree and key files',
  manifests: 'Manifests',
  patterns: 'Patterns',
  focus: 'Focus search',
  imports: 'Import graph',
  git: 'Git history',
};

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const fileStem = (r: ExploreResult) =>
  `explore-${(r.path === '.' ? 'repository' : r.path).replace(/[^\w.-]+/g, '_')}-${r.depth}`;

export function ExploreView({ view, update, repoKey, wide }: ViewProps & { wide?: boolean }) {
  const [pathDraft, setPathDraft] = useDebouncedDraft(view.xpath, (xpath) => update({ xpath }), 500);
  const [focusDraft, setFocusDraft] = useDebouncedDraft(view.xfocus, (xfocus) => update({ xfocus }), 500);
  const args = {
    path: view.xpath.trim() || '.',
    ...(view.xfocus.trim() ? { focus: view.xfocus.trim() } : {}),
    depth: view.xdepth,
  };
  const [state, rerun] = useExplore(args, repoKey);
  const report = state.state === 'error' ? null : state.report;
  const expected = analyzersFor(view.xdepth, args.focus);
  const open = (file: string, line?: number) => update({ file, line: line ?? 0 }, { push: true });

  return (
    <section
      className={`view-panel explore-view${wide ? ' wide' : ''}`}
      aria-labelledby="explore-title"
      data-testid="explore-view"
    >
      <div className="view-head">
        <h2 id="explore-title">Explore</h2>
        <form
          className="view-controls"
          role="search"
          aria-label="Explore options"
          onSubmit={(e) => e.preventDefault()}
        >
          <input
            type="search"
            aria-label="Folder to explore"
            placeholder="Folder (whole repository)"
            value={pathDraft}
            onChange={(e) => setPathDraft(e.target.value)}
            spellCheck={false}
          />
          <input
            type="search"
            aria-label="Focus"
            placeholder="Focus, e.g. error handling"
            value={focusDraft}
            onChange={(e) => setFocusDraft(e.target.value)}
            spellCheck={false}
          />
          <select
            aria-label="Depth"
            value={view.xdepth}
            onChange={(e) => update({ xdepth: e.target.value as ExploreDepthKey })}
          >
            <option value="shallow">Shallow: tree and manifests</option>
            <option value="standard">Standard: + patterns and focus</option>
            <option value="deep">Deep: + import graph and history</option>
          </select>
          {state.state === 'running' ? (
            <button type="button" onClick={state.cancel}>
              Cancel
            </button>
          ) : (
            <button type="button" onClick={rerun}>
              Run again
            </button>
          )}
          <button
            type="button"
            disabled={state.state !== 'done'}
            onClick={() =>
              state.state === 'done' &&
              download(`${fileStem(state.report)}.md`, 'text/markdown', exploreMarkdown(state.report))
            }
          >
            Export Markdown
          </button>
          <button
            type="button"
            disabled={state.state !== 'done'}
            onClick={() =>
              state.state === 'done' &&
              download(
                `${fileStem(state.report)}.json`,
                'application/json',
                JSON.stringify(state.report, null, 2),
              )
            }
          >
            Export JSON
          </button>
        </form>
        <AnalyzerProgress expected={expected} report={report} running={state.state === 'running'} />
      </div>
      <div className="view-body explore-body">
        {state.state === 'error' && (
          <ErrorNote error={state.error} what="explore this path" onRetry={rerun} />
        )}
        {state.state === 'cancelled' && (
          <p className="view-hint">
            Cancelled. The sections below are what finished before; Run again for the rest.
          </p>
        )}
        {report && (
          <Report
            report={report}
            view={view}
            update={update}
            open={open}
            running={state.state === 'running'}
          />
        )}
      </div>
    </section>
  );
}

function AnalyzerProgress({
  expected,
  report,
  running,
}: {
  expected: AnalyzerName[];
  report: ExploreResult | null;
  running: boolean;
}) {
  const done = new Map((report?.analyzers ?? []).map((a) => [a.name, a]));
  return (
    <ol className="explore-progress" aria-label="Analyzers" data-testid="explore-progress">
      {expected.map((name) => {
        const a = done.get(name);
        const status = a ? a.status : running ? 'running' : 'waiting';
        return (
          <li key={name} data-status={status} title={a?.error}>
            {status === 'running' ? (
              <span className="spinner" aria-hidden="true" />
            ) : (
              <span className={`dot dot-${status}`} aria-hidden="true" />
            )}
            {ANALYZER_LABEL[name]}
            <span className="muted small">
              {a
                ? a.status === 'ok'
                  ? ` ${formatCount(a.ms)} ms`
                  : ` ${a.status}`
                : status === 'running'
                  ? ' running…'
                  : ''}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

function Section({
  title,
  id,
  children,
  count,
}: {
  title: string;
  id: string;
  children: ReactNode;
  count?: number;
}) {
  return (
    <section className="explore-section" aria-labelledby={`explore-${id}`} data-testid={`explore-${id}`}>
      <h3 id={`explore-${id}`}>
        {title}
        {count !== undefined && <span className="muted small"> {formatCount(count)}</span>}
      </h3>
      {children}
    </section>
  );
}

function Report({
  report,
  view,
  update,
  open,
  running,
}: {
  report: ExploreResult;
  view: ViewProps['view'];
  update: ViewProps['update'];
  open: (file: string, line?: number) => void;
  running: boolean;
}) {
  const [showTree, setShowTree] = useState(true);
  const has = (name: AnalyzerName) => report.analyzers.some((a) => a.name === name);
  const link = (path: string, line?: number, children?: ReactNode) => (
    <FileLink view={view} update={update} path={path} line={line}>
      {children ?? <VisibleText text={line ? `${path}:${line}` : path} />}
    </FileLink>
  );
  return (
    <>
      {report.errors.length > 0 && (
        <div className="view-note view-error" role="alert" data-testid="explore-errors">
          {report.errors.map((e) => (
            <p key={e.analyzer}>
              <strong>{ANALYZER_LABEL[e.analyzer]} failed:</strong> <VisibleText text={e.message} />
            </p>
          ))}
        </div>
      )}
      <Section title="Summary" id="summary">
        <p className="explore-summary">
          {report.summary ? (
            <VisibleText text={report.summary} />
          ) : running ? (
            'Written when every analyzer has finished…'
          ) : (
            ''
          )}
        </p>
        <p className="muted small">
          {plural(report.files_scanned, 'file')} · depth {report.depth}
          {report.focus ? ` · focus "${report.focus}"` : ''}
        </p>
      </Section>
      {has('tree') && (
        <Section title="Key files" id="key-files" count={report.key_files.length}>
          <ul className="explore-list">
            {report.key_files.map((k) => (
              <li key={k.path}>
                {link(k.path)}{' '}
                <span className="muted">
                  — <VisibleText text={k.role} />
                </span>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className="small"
            aria-expanded={showTree}
            onClick={() => setShowTree((s) => !s)}
          >
            {showTree ? 'Hide tree' : 'Show tree'}
          </button>
          {showTree && (
            <pre className="explore-tree" aria-label="Directory tree">
              <VisibleText text={report.tree} multiline />
            </pre>
          )}
        </Section>
      )}
      {has('focus') && (
        <Section
          title={`Focus: ${report.focus ?? ''}`}
          id="focus"
          count={report.focus_findings_detail.length}
        >
          {!report.focus_findings_detail.length && <p className="view-hint">{report.focus_findings}</p>}
          <ul className="explore-list">
            {report.focus_findings_detail.map((h) => (
              <li key={`${h.path}:${h.startLine}`}>
                {link(h.path, h.startLine)} {h.symbol && <Badge kind="symbol">{h.symbol}</Badge>}
                <pre className="explore-snippet">
                  <VisibleText text={h.snippet} multiline />
                </pre>
              </li>
            ))}
          </ul>
        </Section>
      )}
      {has('imports') && report.import_graph && (
        <Section title="Import graph" id="graph" count={report.import_graph.files}>
          <Suspense fallback={<p className="view-note">Loading the graph drawing…</p>}>
            <ImportGraph graph={report.import_graph} onOpenFile={open} height={560} />
          </Suspense>
        </Section>
      )}
      <ExploreDetails report={report} link={link} has={has} />
    </>
  );
}
