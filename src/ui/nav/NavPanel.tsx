/**
 * The navigation panel beside the viewer: a name's definitions (the picker when there are
 * several) or its references grouped by file, definition first. Search-based and saying so.
 * The address holds it (`sym`, `nav`), so a link or a reload shows the same list. Arrow keys
 * move between entries, Enter opens one, Escape closes the panel.
 */
import { useEffect, useRef, useState } from 'react';
import { toQuarryError } from '../../core/errors';
import { definitionRanks, orderReferenceFiles } from '../../core/nav/references';
import type { DefinitionsResult, ReferenceFile, ReferencesStats } from '../../worker/protocol';
import { CodeText } from '../CodeText';
import { useEngine } from '../engine';
import { formatCount, plural } from '../format';
import { languageOf } from '../highlight';
import type { NavKind } from '../url-state';
import { VisibleText } from '../VisibleText';
import { SymbolKind } from './SymbolKind';

type Loaded =
  | { state: 'loading' }
  | { state: 'defs'; result: DefinitionsResult }
  | { state: 'refs'; files: ReferenceFile[]; end: ReferencesStats | null; rank?: Map<string, number> }
  | { state: 'error'; message: string; notReady: boolean };

/**
 * The definitions, or the references as they stream in, of `sym` looked up from `from`;
 * `key` names the lookup (loading while the last answer is another key's).
 */
function useNavResults(nav: Exclude<NavKind, ''>, sym: string, from: string, key: string): Loaded {
  const engine = useEngine();
  const [loaded, setLoaded] = useState<Loaded & { key?: string }>({ state: 'loading' });

  useEffect(() => {
    let live = true;
    const done = (v: Loaded) => live && setLoaded({ ...v, key });
    const fail = (err: unknown) => {
      const e = toQuarryError(err);
      done({ state: 'error', message: e.message, notReady: e.data?.reason === 'indexNotReady' });
    };
    if (nav === 'defs') {
      engine.definitions({ name: sym, path: from }).then((result) => done({ state: 'defs', result }), fail);
      return () => {
        live = false;
      };
    }
    // references stream in: the panel shows the first files at once and fills as the search goes
    let files: ReferenceFile[] = [];
    let end: ReferencesStats | null = null;
    // definition files are listed in the definitions' ranking (asked alongside; no index, no ranking)
    let rank: Map<string, number> | undefined;
    const show = () => done({ state: 'refs', files, end, rank });
    engine.definitions({ name: sym, path: from }).then(
      (r) => {
        rank = definitionRanks(r.definitions);
        if (files.length || end) show();
      },
      () => {},
    );
    const job = engine.references({ name: sym, path: from }).onBatch((batch) => {
      files = [...files, ...batch];
      show();
    });
    // the end's last files reach the batch callback first
    job.done.then((e) => {
      end = e.stats;
      show();
    }, fail);
    return () => {
      live = false;
      job.cancel();
    };
  }, [engine, key, nav, sym, from]);

  return loaded.key === key ? loaded : { state: 'loading' };
}

/** The definitions found, each a button that opens it (the one the viewer is at marked). */
function DefinitionList({
  definitions,
  current,
  onOpen,
}: {
  definitions: DefinitionsResult['definitions'];
  current: { path: string; line: number };
  onOpen: (path: string, line: number) => void;
}) {
  return (
    <ul className="nav-defs">
      {definitions.map((d) => {
        const here = d.path === current.path && d.line === current.line;
        return (
          <li key={`${d.path}:${d.line}`}>
            <button
              type="button"
              data-nav-item
              data-testid="nav-item"
              aria-current={here || undefined}
              className={here ? 'current' : ''}
              onClick={() => onOpen(d.path, d.line)}
            >
              <SymbolKind kind={d.chunkType} />
              <span className="nav-def-name">
                <VisibleText text={d.symbolName} />
              </span>
              <span className="nav-rank">{d.rank}</span>
              <span className="nav-def-where">
                <VisibleText text={d.path} />:{d.line}
              </span>
              <code className="nav-line">
                <CodeText text={d.text} lang={languageOf(d.path)} />
              </code>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** One file's references: a header that folds it, and a button per line. */
function ReferenceFileSection({
  file: f,
  closed,
  onToggle,
  current,
  onOpen,
}: {
  file: ReferenceFile;
  closed: boolean;
  onToggle: () => void;
  current: { path: string; line: number };
  onOpen: (path: string, line: number) => void;
}) {
  return (
    <section className="nav-file">
      <h3>
        <button type="button" className="nav-file-head" aria-expanded={!closed} onClick={onToggle}>
          <span aria-hidden="true">{closed ? '▸' : '▾'}</span> <VisibleText text={f.path} />{' '}
          <span className="nav-file-count">{f.lines.length}</span>
        </button>
      </h3>
      {!closed && (
        <ul>
          {f.lines.map((l) => {
            const here = f.path === current.path && l.line === current.line;
            return (
              <li key={l.line}>
                <button
                  type="button"
                  data-nav-item
                  data-testid="nav-item"
                  className={`nav-ref${here ? ' current' : ''}${l.definition ? ' def' : ''}`}
                  aria-current={here || undefined}
                  aria-label={`${f.path} line ${l.line}${l.definition ? ', definition' : ''}`}
                  onClick={() => onOpen(f.path, l.line)}
                >
                  <span className="nav-ln">{l.line}</span>
                  <code className="nav-line">
                    <CodeText
                      text={l.text}
                      lang={languageOf(f.path)}
                      hits={l.ranges}
                      from={lineStart(l.text, l.ranges)}
                    />
                  </code>
                  {l.definition && <span className="nav-rank">definition</span>}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** The panel's title, the definitions/references switch, the close button and what the list is based on. */
function NavPanelHead({
  nav,
  sym,
  title,
  onClose,
  onSwitch,
}: {
  nav: Exclude<NavKind, ''>;
  sym: string;
  title: string;
  onClose: () => void;
  onSwitch: (nav: Exclude<NavKind, ''>) => void;
}) {
  return (
    <>
      <header className="nav-head">
        <h2>
          {title} of <code>{sym}</code>
        </h2>
        <div className="nav-switch" role="group" aria-label="Show">
          <button type="button" aria-pressed={nav === 'defs'} onClick={() => onSwitch('defs')}>
            Definitions
          </button>
          <button type="button" aria-pressed={nav === 'refs'} onClick={() => onSwitch('refs')}>
            References
          </button>
        </div>
        <button
          type="button"
          className="icon-button"
          aria-label="Close the navigation panel"
          title="Close (Escape)"
          onClick={onClose}
        >
          ×
        </button>
      </header>
      <p className="nav-note">
        {nav === 'defs'
          ? 'Search-based: symbols with this name from the code index (no type checker), this file and its imports first.'
          : 'Search-based: whole-word, case-sensitive matches of the name, definitions first.'}
      </p>
    </>
  );
}

export function NavPanel({
  sym,
  nav,
  from,
  current,
  indexVersion,
  repoKey,
  onOpen,
  onClose,
  onSwitch,
}: {
  sym: string;
  nav: Exclude<NavKind, ''>;
  /** The file the name was looked up from (ranking), and where the viewer is now (marked in the list). */
  from: string;
  current: { path: string; line: number };
  indexVersion: number;
  repoKey: string;
  onOpen: (path: string, line: number) => void;
  onClose: () => void;
  onSwitch: (nav: Exclude<NavKind, ''>) => void;
}) {
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const listRef = useRef<HTMLDivElement>(null);
  const shown = useNavResults(nav, sym, from, `${nav}\n${sym}\n${from}\n${indexVersion}\n${repoKey}`);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const items = [...(listRef.current?.querySelectorAll<HTMLElement>('[data-nav-item]') ?? [])];
    if (!items.length) return;
    e.preventDefault();
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next =
      e.key === 'ArrowDown' ? Math.min(items.length - 1, at + 1) : Math.max(0, at < 0 ? 0 : at - 1);
    items[next].focus();
  };

  const title = nav === 'defs' ? 'Definitions' : 'References';
  return (
    <aside
      className="nav-panel"
      aria-label={`${title} of ${sym}`}
      data-testid="nav-panel"
      onKeyDown={onKeyDown}
    >
      <NavPanelHead nav={nav} sym={sym} title={title} onClose={onClose} onSwitch={onSwitch} />
      <div className="nav-list" ref={listRef} data-testid="nav-list" aria-busy={shown.state === 'loading'}>
        {shown.state === 'loading' && <p className="panel-note">Looking for {sym}…</p>}
        {shown.state === 'error' && (
          <p
            className={shown.notReady ? 'panel-note' : 'inline-error'}
            role={shown.notReady ? undefined : 'alert'}
          >
            <VisibleText text={shown.message} multiline />
          </p>
        )}
        {shown.state === 'defs' && (
          <>
            <p className="nav-count" data-testid="nav-count" role="status">
              {shown.result.definitions.length
                ? plural(shown.result.definitions.length, 'definition')
                : `No definition of ${sym} in the code index.`}
            </p>
            <DefinitionList definitions={shown.result.definitions} current={current} onOpen={onOpen} />
          </>
        )}
        {shown.state === 'refs' && (
          <>
            <p className="nav-count" data-testid="nav-count" role="status">
              {refsCount(shown.files, shown.end, sym)}
            </p>
            {orderReferenceFiles(shown.files, from, shown.rank).map((f) => (
              <ReferenceFileSection
                key={f.path}
                file={f}
                closed={collapsed.has(f.path)}
                onToggle={() =>
                  setCollapsed((s) => {
                    const n = new Set(s);
                    if (n.has(f.path)) n.delete(f.path);
                    else n.add(f.path);
                    return n;
                  })
                }
                current={current}
                onOpen={onOpen}
              />
            ))}
          </>
        )}
      </div>
    </aside>
  );
}

/** Where a listed line starts: past its indentation, and close enough before the first hit that the hit shows. */
export function lineStart(text: string, ranges: readonly (readonly [number, number])[]): number {
  const indent = text.length - text.trimStart().length;
  const hit = ranges[0]?.[0] ?? 0;
  if (hit - indent <= 16) return indent;
  // about 12 characters before the hit, moved forward to a word's start (never "t interface" for "export interface")
  let p = Math.max(indent, hit - 12);
  while (p < hit && /[\w$]/.test(text[p - 1] ?? '')) p++;
  while (p < hit && /\s/.test(text[p])) p++;
  return p;
}

/** "12 references in 4 files", "At least …" past the count limit, "… so far" while the search runs. */
function refsCount(files: readonly ReferenceFile[], end: ReferencesStats | null, sym: string): string {
  const listed = files.reduce((n, f) => n + f.lines.length, 0);
  if (!end) return `${plural(listed, 'reference')} in ${plural(files.length, 'file')} so far…`;
  if (!end.total) return `No reference to ${sym}.`;
  const head = `${end.limitHit ? 'At least ' : ''}${plural(end.total, 'reference')} in ${plural(files.length, 'file')}`;
  return listed < end.total ? `${head} (the first ${formatCount(listed)} listed)` : head;
}
