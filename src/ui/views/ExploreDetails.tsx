/**
 * The Explore report's data sections: patterns with their counted examples, dependencies per
 * manifest, the import graph's cycles, hubs and orphans as lists (the drawing's accessible
 * twin), and the git history.
 */
import type { ReactNode } from 'react';
import type { AnalyzerName, ExploreResult } from '../../core/explore/types';
import { formatCount } from '../format';
import { VisibleText } from '../VisibleText';
import { Badge } from './parts';

type Link = (path: string, line?: number, children?: ReactNode) => ReactNode;

function Block({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <section className="explore-section" aria-labelledby={`explore-${id}`} data-testid={`explore-${id}`}>
      <h3 id={`explore-${id}`}>{title}</h3>
      {children}
    </section>
  );
}

/** One manifest: its kind and name, dependencies by scope, scripts, entry points, paths, errors. */
function ManifestDetail({ m, link }: { m: ExploreResult['dependencies_detail'][number]; link: Link }) {
  const scopes = [...new Set(m.dependencies.map((d) => d.scope))];
  return (
    <div className="explore-manifest">
      <h4>
        {link(m.path)} <Badge kind="kind">{m.kind}</Badge>{' '}
        {m.name && (
          <span className="muted">
            <VisibleText text={`${m.name}${m.version ? ` ${m.version}` : ''}`} />
          </span>
        )}
      </h4>
      {scopes.map((scope) => {
        const list = m.dependencies.filter((d) => d.scope === scope);
        return (
          <p key={scope} className="explore-deps">
            <strong>
              {scope} ({list.length}):
            </strong>{' '}
            <VisibleText
              text={list.map((d) => (d.version === '*' ? d.name : `${d.name} ${d.version}`)).join(', ')}
            />
          </p>
        );
      })}
      {Object.keys(m.scripts).length > 0 && (
        <p className="explore-deps">
          <strong>scripts:</strong> <VisibleText text={Object.keys(m.scripts).join(', ')} />
        </p>
      )}
      {m.entryPoints.length > 0 && (
        <p className="explore-deps">
          <strong>entry points:</strong> <VisibleText text={m.entryPoints.join(', ')} />
        </p>
      )}
      {Object.keys(m.paths).length > 0 && (
        <p className="explore-deps">
          <strong>paths:</strong>{' '}
          <VisibleText
            text={Object.entries(m.paths)
              .map(([k, v]) => `${k} → ${v.join(' | ')}`)
              .join('; ')}
          />
        </p>
      )}
      {m.errors.map((e) => (
        <p key={e} className="explore-deps view-error">
          <VisibleText text={e} />
        </p>
      ))}
    </div>
  );
}

/** The import graph as lists: its size, the runtime and type-only cycles, the hubs and the orphans. */
function GraphLists({ g, link }: { g: NonNullable<ExploreResult['import_graph']>; link: Link }) {
  return (
    <>
      <p className="muted small">
        {formatCount(g.files)} source files, {formatCount(g.internalEdges)} imports between them,{' '}
        {formatCount(g.externals)} external packages, {formatCount(g.unresolved.length)} unresolved
        {g.truncated ? ' · the drawing shows the best-connected part' : ''}.
      </p>
      <h4>Runtime cycles ({g.cycles.length})</h4>
      {!g.cycles.length && <p className="view-hint">No runtime cycle.</p>}
      <ul className="explore-list" data-testid="explore-cycles">
        {g.cycles.map((c) => (
          <li key={c.files.join('\0')}>
            {c.path.map((p, i) => (
              <span key={i}>
                {i > 0 && ' → '}
                {link(p)}
              </span>
            ))}
          </li>
        ))}
      </ul>
      {g.typeCycles.length > 0 && (
        <>
          <h4>Type-only cycles ({g.typeCycles.length}, no runtime effect)</h4>
          <ul className="explore-list">
            {g.typeCycles.map((c) => (
              <li key={c.files.join('\0')}>
                <VisibleText text={c.path.join(' → ')} />
              </li>
            ))}
          </ul>
        </>
      )}
      {g.hubs.fanIn.length > 0 && (
        <>
          <h4>Most imported</h4>
          <ul className="explore-list">
            {g.hubs.fanIn.map((h) => (
              <li key={h.path}>
                {link(h.path)} <span className="muted">{h.count}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {g.orphans.length > 0 && (
        <>
          <h4>Orphans ({g.orphans.length}): nothing imports them and they are no entry point</h4>
          <ul className="explore-list">
            {g.orphans.slice(0, 50).map((o) => (
              <li key={o}>{link(o)}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}

/** The git history: branch and HEAD, the last commits and the most changed files. */
function GitHistoryDetail({
  git,
  link,
}: {
  git: NonNullable<ExploreResult['git_history_detail']>;
  link: Link;
}) {
  return (
    <>
      {!git.available && <p className="view-hint">{git.reason}</p>}
      {git.available && (
        <>
          <p className="muted small">
            Branch {git.branch ?? '(detached HEAD)'} at {git.head?.slice(0, 7)}
            {git.shallow ? ' (shallow clone)' : ''} ·{' '}
            {git.uncommitted?.length
              ? `${git.uncommitted.length} uncommitted changes`
              : 'no uncommitted changes'}
          </p>
          <ul className="explore-list">
            {(git.commits ?? []).map((c) => (
              <li key={c.oid}>
                <code>{c.oid.slice(0, 7)}</code> <span className="muted">{c.date.slice(0, 10)}</span>{' '}
                <VisibleText text={`${c.author}: ${c.message}`} />{' '}
                <span className="muted small">({c.files} files)</span>
              </li>
            ))}
          </ul>
          {!!git.hotFiles?.length && (
            <>
              <h4>Most changed</h4>
              <ul className="explore-list">
                {git.hotFiles.map((f) => (
                  <li key={f.path}>
                    {link(f.path)} <span className="muted">{f.commits} commits</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </>
  );
}

export function ExploreDetails({
  report,
  link,
  has,
}: {
  report: ExploreResult;
  link: Link;
  has: (name: AnalyzerName) => boolean;
}) {
  const g = report.import_graph;
  const git = report.git_history_detail;
  return (
    <>
      {has('patterns') && (
        <Block title="Patterns" id="patterns">
          {!report.patterns.length && <p className="view-hint">No pattern found in the source files.</p>}
          {report.patterns.map((p) => (
            <div key={p.name + p.description} className="explore-pattern">
              <h4>
                <VisibleText text={p.name} />
              </h4>
              <p>
                <VisibleText text={p.description} />
              </p>
              <ul className="explore-list">
                {p.examples.map((e) => (
                  <li key={`${e.path}:${e.line}`}>
                    {link(e.path, e.line)}{' '}
                    {e.text && <code className="explore-code">{<VisibleText text={e.text} />}</code>}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </Block>
      )}
      {has('manifests') && (
        <Block title="Dependencies" id="dependencies">
          {!report.dependencies_detail.length && <p className="view-hint">No dependency manifest found.</p>}
          {report.dependencies_detail.map((m) => (
            <ManifestDetail key={m.path} m={m} link={link} />
          ))}
        </Block>
      )}
      {has('imports') && g && (
        <Block title="Cycles, hubs and orphans" id="graph-lists">
          <GraphLists g={g} link={link} />
        </Block>
      )}
      {has('git') && git && (
        <Block title="Git history" id="git">
          <GitHistoryDetail git={git} link={link} />
        </Block>
      )}
    </>
  );
}
