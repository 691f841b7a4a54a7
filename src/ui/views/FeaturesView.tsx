/**
 * Features: the flag inventory of the repository (every flag with its SDK and reference
 * count), and a "check a feature" box that runs feature_status and shows its status card:
 * implemented, feature-flagged (and the flag), test coverage, the summary, and the
 * references with their context lines, the match in a <mark>, each linking to the viewer.
 * The feature checked and the inventory filter live in the URL (feature, fq).
 */
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { FeatureReference, FlagInfo } from '../../core/analyze/features';
import type { FeatureStatusResult } from '../../core/tools/feature-status';
import { formatCount, plural } from '../format';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import { Badge, EmptyNote, ErrorNote, FileLink, Loading, matchesText, type ViewProps } from './parts';
import { useDebouncedDraft, useTool } from './use-tool';

interface InventoryResult {
  flags: FlagInfo[];
  total: number;
  filesScanned: number;
  skipped: Array<{ path: string; reason: string; detail?: string }>;
}

const NO_ARGS = {};
const MAX_REFERENCES = 100;

export function FeaturesView({ view, update, repoKey }: ViewProps) {
  const [name, setName] = useState(view.feature);
  useEffect(() => setName(view.feature), [view.feature]);
  const checkArgs = useMemo(
    () => (view.feature.trim() ? { featureName: view.feature.trim(), maxReferences: MAX_REFERENCES } : null),
    [view.feature],
  );
  const [status, retryStatus] = useTool<FeatureStatusResult>('feature_status', checkArgs, repoKey);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    update({ feature: name.trim() }, { push: true });
  };

  return (
    <section className="view-panel" aria-labelledby="features-title" data-testid="features-view">
      <div className="view-head">
        <h2 id="features-title">Features</h2>
        <form
          className="view-controls feature-form"
          role="search"
          aria-label="Check a feature"
          onSubmit={onSubmit}
        >
          <input
            type="search"
            name="feature"
            aria-label="Feature name"
            placeholder="Feature name, e.g. new checkout or darkMode"
            value={name}
            onChange={(e) => setName(e.target.value)}
            spellCheck={false}
          />
          <button type="submit" className="primary" disabled={!name.trim()}>
            Check
          </button>
        </form>
      </div>
      <div className="view-body">
        {status.state === 'idle' && (
          <p className="view-hint">
            Type a feature name and press Check to see whether it is implemented, behind a flag and tested.
            Names are matched in camelCase, snake_case, kebab-case and SCREAMING_CASE.
          </p>
        )}
        {status.state === 'loading' && <Loading>Checking “{view.feature}”…</Loading>}
        {status.state === 'error' && (
          <ErrorNote error={status.error} what={`check “${view.feature}”`} onRetry={retryStatus} />
        )}
        {status.state === 'ready' && <StatusCard s={status.value} view={view} update={update} />}
        <Inventory view={view} update={update} repoKey={repoKey} />
      </div>
    </section>
  );
}

function YesNo({ value, yes, no }: { value: boolean; yes: string; no: string }) {
  return <span className={`yesno ${value ? 'yes' : 'no'}`}>{value ? yes : no}</span>;
}

function StatusCard({ s, view, update }: { s: FeatureStatusResult } & Omit<ViewProps, 'repoKey'>) {
  const byFile = useMemo(() => {
    const m = new Map<string, FeatureReference[]>();
    for (const r of s.references) {
      if (!m.has(r.path)) m.set(r.path, []);
      m.get(r.path)!.push(r);
    }
    return [...m];
  }, [s]);
  return (
    <article className="status-card" aria-labelledby="status-title" data-testid="feature-status">
      <h3 id="status-title">
        Feature:{' '}
        <span className="mono">
          <VisibleText text={s.featureName} />
        </span>
      </h3>
      <dl className="status-facts">
        <div>
          <dt>Implemented</dt>
          <dd data-testid="status-implemented">
            <YesNo value={s.implemented} yes="Yes" no="No" />
          </dd>
        </div>
        <div>
          <dt>Feature-flagged</dt>
          <dd data-testid="status-flagged">
            <YesNo value={s.featureFlagged} yes="Yes" no="No" />
            {s.flagName && (
              <>
                {' '}
                <span className="mono flag-name">
                  <VisibleText text={s.flagName} />
                </span>
                {s.flags[0] && (
                  <span className="muted">
                    {' '}
                    ({s.flags.find((f) => f.name === s.flagName)?.sdkLabel ?? s.flags[0].sdkLabel})
                  </span>
                )}
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Test coverage</dt>
          <dd data-testid="status-tests">
            <YesNo value={s.testCoverage} yes="Yes" no="No" />
            {s.testFiles.length > 0 && (
              <span className="muted"> ({plural(s.testFiles.length, 'test file')})</span>
            )}
          </dd>
        </div>
      </dl>
      <p className="status-summary" data-testid="status-summary">
        {s.summary}
      </p>
      <p className="muted small">
        Matched as: {s.variants.slice(0, 8).join(', ')}
        {s.variants.length > 8 ? '…' : ''}
      </p>
      <h4>
        References{' '}
        <span className="muted">
          (
          {s.totalReferences > s.references.length
            ? `${formatCount(s.references.length)} of ${formatCount(s.totalReferences)}`
            : formatCount(s.totalReferences)}
          )
        </span>
      </h4>
      {s.references.length === 0 ? (
        <p className="view-hint">
          No file mentions this feature under any of its spellings. Try another name, or use Search for a
          looser match.
        </p>
      ) : (
        <ul className="ref-files" aria-label={`References to ${visibleText(s.featureName)}`}>
          {byFile.map(([path, refs]) => (
            <li key={path} className="ref-file">
              <div className="ref-file-head">
                <span className="mono path-text" title={visibleText(path)}>
                  <VisibleText text={path} />
                </span>
                <Badge kind={`cat-${refs[0].category}`}>{refs[0].category}</Badge>
              </div>
              <References refs={refs} view={view} update={update} />
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

interface RefBlock {
  start: number;
  lines: string[];
  /** Hit line -> its reference. */
  hits: Map<number, FeatureReference>;
}

/** References of one file whose context lines touch or overlap share one block of lines. */
function refBlocks(refs: FeatureReference[]): RefBlock[] {
  const blocks: RefBlock[] = [];
  for (const r of [...refs].sort((a, b) => a.line - b.line)) {
    const lines = r.context.split('\n');
    const last = blocks[blocks.length - 1];
    if (last && r.contextStartLine <= last.start + last.lines.length) {
      const skip = last.start + last.lines.length - r.contextStartLine;
      last.lines.push(...lines.slice(skip));
      last.hits.set(r.line, r);
    } else {
      blocks.push({ start: r.contextStartLine, lines, hits: new Map([[r.line, r]]) });
    }
  }
  return blocks;
}

function References({ refs, view, update }: { refs: FeatureReference[] } & Omit<ViewProps, 'repoKey'>) {
  const blocks = useMemo(() => refBlocks(refs), [refs]);
  return (
    <>
      {blocks.map((b) => (
        <div key={b.start} className="ref-context mono" data-testid="feature-ref-context">
          {b.lines.map((text, i) => {
            const n = b.start + i;
            const r = b.hits.get(n);
            return (
              <div
                key={n}
                className={`ref-line${r ? ' hit' : ''}`}
                data-testid={r ? 'feature-ref' : undefined}
              >
                {r ? (
                  <FileLink
                    view={view}
                    update={update}
                    path={r.path}
                    line={n}
                    label={`Open ${visibleText(r.path)} at line ${n}${r.comment ? ' (a comment)' : ''}`}
                    className="ref-ln"
                  >
                    {n}
                  </FileLink>
                ) : (
                  <span className="ref-ln" aria-hidden="true">
                    {n}
                  </span>
                )}
                <span className="ref-text">
                  {r ? <MarkedLine text={text} column={r.column} match={r.match} /> : text || ' '}
                </span>
              </div>
            );
          })}
        </div>
      ))}
    </>
  );
}

/** The hit line with the match in a <mark> (the column is 1-based, in UTF-16 units). */
function MarkedLine({ text, column, match }: { text: string; column: number; match: string }) {
  let start = column - 1;
  if (text.slice(start, start + match.length) !== match) start = text.indexOf(match);
  if (start < 0 || !match) return <>{text}</>;
  return (
    <>
      {text.slice(0, start)}
      <mark>{text.slice(start, start + match.length)}</mark>
      {text.slice(start + match.length)}
    </>
  );
}

function Inventory({ view, update, repoKey }: ViewProps) {
  const [state, retry] = useTool<InventoryResult>('flag_inventory', NO_ARGS, repoKey);
  const [draft, setDraft] = useDebouncedDraft(view.fq, (fq) => update({ fq }));
  const all = useMemo(() => (state.state === 'ready' ? state.value.flags : []), [state]);
  const shown = useMemo(() => all.filter((f) => matchesText(view.fq, f.name, f.sdkLabel)), [all, view.fq]);
  return (
    <section className="inventory" aria-labelledby="inventory-title" data-testid="flag-inventory">
      <div className="inventory-head">
        <h3 id="inventory-title">Flag inventory</h3>
        {all.length > 0 && (
          <input
            type="search"
            aria-label="Filter flags"
            placeholder="Filter by flag or SDK"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            spellCheck={false}
          />
        )}
      </div>
      {state.state === 'loading' && <Loading>Looking for feature flags…</Loading>}
      {state.state === 'error' && (
        <ErrorNote error={state.error} what="list the feature flags" onRetry={retry} />
      )}
      {state.state === 'ready' && (
        <p className="view-summary" data-testid="inventory-summary">
          {view.fq && all.length ? `${formatCount(shown.length)} of ` : ''}
          {plural(state.value.total, 'flag')} in {plural(state.value.filesScanned, 'file')} (test files not
          counted)
        </p>
      )}
      {state.state === 'ready' && all.length === 0 && (
        <EmptyNote title="No feature flags found.">
          <p>
            Quarry recognises LaunchDarkly, Unleash, GrowthBook, PostHog, Statsig, Flagsmith, OpenFeature and
            Vercel flags, plus env-var flags (NEXT_PUBLIC_FEATURE_X) and config objects (features.x). You can
            still check a feature by name above.
          </p>
        </EmptyNote>
      )}
      {state.state === 'ready' && all.length > 0 && shown.length === 0 && (
        <EmptyNote title={`No flag matches “${visibleText(view.fq)}”.`}>
          <button type="button" onClick={() => update({ fq: '' })}>
            Clear the filter
          </button>
        </EmptyNote>
      )}
      {shown.length > 0 && (
        <table className="view-table inventory-table" aria-label="Feature flags">
          <thead>
            <tr>
              <th scope="col">Flag</th>
              <th scope="col">SDK</th>
              <th scope="col" className="num">
                References
              </th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((f) => (
              <tr key={`${f.sdk}:${f.name}`} data-testid="flag-row">
                <th scope="row" className="mono name-cell">
                  {f.places[0] ? (
                    <FileLink
                      view={view}
                      update={update}
                      path={f.places[0].path}
                      line={f.places[0].line}
                      label={`${visibleText(f.name)}, first used in ${visibleText(f.places[0].path)} line ${f.places[0].line}`}
                    >
                      <VisibleText text={f.name} />
                    </FileLink>
                  ) : (
                    <VisibleText text={f.name} />
                  )}
                </th>
                <td>
                  <Badge kind={`sdk-${f.sdk}`}>{f.sdkLabel}</Badge>
                </td>
                <td
                  className="num"
                  title={`${plural(f.references, 'check')}, ${plural(f.definitions, 'definition')} in ${plural(f.files, 'file')}`}
                >
                  {formatCount(f.references + f.definitions)}
                </td>
                <td className="action-cell">
                  <button
                    type="button"
                    className="small"
                    aria-label={`Check feature ${visibleText(f.name)}`}
                    onClick={() => update({ feature: f.name }, { push: true })}
                  >
                    Check
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
