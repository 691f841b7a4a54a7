/**
 * The file viewer: only the lines on screen are in the DOM and coloured (a 50k-line file
 * opens at once), with line numbers, the current search's hits in <mark> (F3 / Shift+F3 move
 * between them), jump to line, "copy link" to a line, and breadcrumbs. A click on a name
 * marks its occurrences and offers Go to definition (F12, or Ctrl/Cmd+click) and Find
 * references (Shift+F12). The hits are computed in the worker with the same matcher.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { lazyMeasureOptions } from './virtual';
import {
  startTransition,
  useEffect,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { QuarryError, toQuarryError } from '../core/errors';
import type { HitRange } from '../core/grep/types';
import type { FileContent, FileHighlight } from '../worker/protocol';
import { CodeText } from './CodeText';
import { useSyntax } from './use-syntax';
import { fnv1a } from '../core/hash';
import { useEngine } from './engine';
import { visibleText } from './visible-text';
import { VisibleText } from './VisibleText';
import { formatBytes, formatCount } from './format';
import { languageOf } from './highlight';
import { wholeWordRanges, isIdentifier } from '../core/nav/identifier';
import { Breadcrumbs } from './nav/Breadcrumbs';
import { identifierAtPoint } from './nav/code-click';
import { WordMenu, type NavAction } from './nav/WordMenu';
import { stepMatch, useViewerKeys } from './nav/use-viewer-keys';
import './nav/nav.css';

const ROW_HEIGHT = 20;

type Loaded =
  { state: 'loading' } | { state: 'ready'; content: FileContent } | { state: 'error'; error: QuarryError };

/** The file at `path`, read again when the highlight's value, the repository or the engine changes. */
function useFileContent(path: string, highlight: FileHighlight | null, repoKey: string): Loaded {
  const engine = useEngine();
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  const hlKey = highlight ? JSON.stringify(highlight) : '';
  // The read follows the highlight's value (hlKey), not its identity: a parent may build a new object each render.
  const latestHighlight = useEffectEvent(() => highlight);

  useEffect(() => {
    let current = true;
    setLoaded((prev) => (prev.state === 'ready' && prev.content.path === path ? prev : { state: 'loading' }));
    engine.readFile(path, latestHighlight() ?? undefined).then(
      // a transition: the file's first screen renders in time slices, not in the task of the answer
      (content) => current && startTransition(() => setLoaded({ state: 'ready', content })),
      (err) => current && setLoaded({ state: 'error', error: toQuarryError(err) }),
    );
    return () => {
      current = false;
    };
  }, [path, hlKey, repoKey, engine]);
  return loaded;
}

/**
 * A click on a name in the code: the name under the cursor (its occurrences are marked; F12 /
 * Shift+F12 look it up) and the menu offered beside it; Ctrl/Cmd+click goes to its definition.
 */
function useNameClicks({
  path,
  lines,
  line,
  onLine,
  onNavigate,
}: {
  path: string;
  lines: readonly string[];
  line: number;
  onLine: (line: number) => void;
  onNavigate?: (name: string, action: NavAction) => void;
}) {
  /** The name under the cursor (a click on it): its occurrences are marked; F12 / Shift+F12 look it up. */
  const [cursor, setCursor] = useState<{ path: string; line: number; name: string } | null>(null);
  const [menu, setMenu] = useState<{ name: string; x: number; y: number } | null>(null);
  /** A click on a name moves the current line without scrolling the view to centre it. */
  const keepScroll = useRef(false);
  const word = cursor && cursor.path === path ? cursor.name : '';

  const onCodeClick = (e: React.MouseEvent<HTMLDivElement>) => {
    const row = (e.target as HTMLElement).closest<HTMLElement>('.code-line');
    const code = row?.querySelector<HTMLElement>('.code');
    if (!row || !code || !code.contains(e.target as Node)) return;
    const sel = window.getSelection();
    if (sel && !sel.isCollapsed && sel.toString()) return; // a drag that selected text
    const n = Number(row.dataset.line);
    const hit = identifierAtPoint(code, lines[n - 1] ?? '', e.clientX, e.clientY);
    if (!hit) {
      setCursor(null);
      setMenu(null);
      return;
    }
    setCursor({ path, line: n, name: hit.name });
    if (n !== line) {
      keepScroll.current = true;
      onLine(n);
    }
    if (e.ctrlKey || e.metaKey) {
      setMenu(null);
      onNavigate?.(hit.name, 'definition');
      return;
    }
    const box = (e.currentTarget.closest('.viewer') as HTMLElement).getBoundingClientRect();
    setMenu({ name: hit.name, x: e.clientX - box.left, y: e.clientY - box.top });
  };
  return { word, menu, setMenu, keepScroll, onCodeClick };
}

/** Jump to a line: a number field and Go. */
function GotoLine({ lineCount, onLine }: { lineCount: number; onLine: (line: number) => void }) {
  const [goto, setGoto] = useState('');
  return (
    <form
      className="goto"
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number.parseInt(goto, 10);
        if (n > 0) onLine(Math.min(n, lineCount || n));
        setGoto('');
      }}
    >
      <input
        type="number"
        min={1}
        aria-label="Go to line"
        placeholder="Line"
        value={goto}
        onChange={(e) => setGoto(e.target.value)}
      />
      <button type="submit">Go</button>
    </form>
  );
}

/** Copy a link to the file (and its line) to the clipboard, and say so for a moment. */
function CopyLink({ path, line }: { path: string; line: number }) {
  const [copied, setCopied] = useState('');
  const copyLink = async () => {
    const url = new URL(location.href);
    url.searchParams.set('file', path);
    if (line) url.searchParams.set('line', String(line));
    const text = url.toString();
    try {
      await navigator.clipboard.writeText(text);
      setCopied(line ? `Link to line ${line} copied` : 'Link copied');
    } catch {
      window.prompt('Copy this link', text);
      setCopied('');
    }
    setTimeout(() => setCopied(''), 2500);
  };
  return (
    <>
      <button
        type="button"
        onClick={copyLink}
        data-testid="copy-link"
        aria-label={line ? `Copy link to line ${line}` : 'Copy link'}
        title={line ? `Copy a link to line ${line}` : 'Copy a link to this file'}
      >
        Copy link
      </button>
      <span className="copied" role="status">
        {copied}
      </span>
    </>
  );
}

/** The file's matches: previous, where the current line is among them, next. */
function MatchNav({
  hitLines,
  line,
  onLine,
}: {
  hitLines: number[];
  line: number;
  onLine: (line: number) => void;
}) {
  const matchIndex = hitLines.indexOf(line);
  return (
    <span className="match-nav" role="group" aria-label="Matches in this file">
      <button
        type="button"
        aria-label="Previous match (Shift+F3)"
        title="Previous match (Shift+F3)"
        onClick={() => stepMatch(hitLines, line, -1, onLine)}
      >
        ↑
      </button>
      <span data-testid="match-position">
        {matchIndex >= 0
          ? `${matchIndex + 1} of ${formatCount(hitLines.length)}`
          : `${formatCount(hitLines.length)} matches`}
      </span>
      <button
        type="button"
        aria-label="Next match (F3)"
        title="Next match (F3)"
        onClick={() => stepMatch(hitLines, line, 1, onLine)}
      >
        ↓
      </button>
    </span>
  );
}

/** The viewer's bar: the path, the file's size, go to line, copy link, the matches, the extra tools. */
function ViewerBar({
  path,
  content,
  lineCount,
  line,
  hitLines,
  onLine,
  toolbar,
}: {
  path: string;
  content: FileContent | null;
  lineCount: number;
  line: number;
  hitLines: number[];
  onLine: (line: number) => void;
  toolbar?: ReactNode;
}) {
  return (
    <header className="viewer-bar">
      <h2 className="viewer-path" title={visibleText(path)}>
        <VisibleText text={path} />
      </h2>
      {content && (
        <span className="viewer-meta">
          {formatCount(content.lineCount)} lines · {formatBytes(content.bytes)}
          {content.hits.length ? ` · ${formatCount(content.hits.length)} matching lines` : ''}
        </span>
      )}
      <GotoLine lineCount={lineCount} onLine={onLine} />
      <CopyLink path={path} line={line} />
      {hitLines.length > 0 && <MatchNav hitLines={hitLines} line={line} onLine={onLine} />}
      {toolbar}
    </header>
  );
}

/** Why the file cannot be shown, or that it is opening, or that its matches could not be marked. */
function FileStatus({ path, loaded }: { path: string; loaded: Loaded }) {
  return (
    <>
      {loaded.state === 'loading' && (
        <p className="panel-note">
          Opening <VisibleText text={path} />…
        </p>
      )}
      {loaded.state === 'error' && (
        <div className="panel-note" role="alert">
          <p>
            <strong>Cannot show this file.</strong> <VisibleText text={loaded.error.message} multiline />
          </p>
          <p>Pick another file in the tree or with Ctrl/⌘+P.</p>
        </div>
      )}
      {loaded.state === 'ready' && loaded.content.highlightError && (
        <p className="inline-error">
          Matches not highlighted: <VisibleText text={loaded.content.highlightError.message} multiline />
        </p>
      )}
    </>
  );
}

export function FileViewer({
  path,
  line,
  highlight,
  repoKey,
  onLine,
  toolbar,
  indexVersion = 0,
  onNavigate,
  onSymbolPicker,
}: {
  /** Extra controls at the end of the viewer's bar (the Markdown preview toggle, blame, history). */
  toolbar?: ReactNode;
  path: string;
  line: number;
  highlight: FileHighlight | null;
  repoKey: string;
  onLine: (line: number) => void;
  indexVersion?: number;
  /** Look a name up: its definitions (`direct`: open the only one at once) or its references. */
  onNavigate?: (name: string, action: NavAction) => void;
  /** F12 with nothing chosen: offer the file's symbols instead. */
  onSymbolPicker?: () => void;
}) {
  const loaded = useFileContent(path, highlight, repoKey);
  const content = loaded.state === 'ready' ? loaded.content : null;
  const lines = useMemo(() => {
    if (!content) return [];
    const all = content.text.split('\n');
    if (all.length > 1 && all[all.length - 1] === '') all.pop();
    return all.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  }, [content]);
  const hitsByLine = useMemo(() => new Map<number, HitRange[]>(content?.hits ?? []), [content]);
  // the text's identity for its colouring: the same text read again (new search highlights) keeps it
  const textVersion = useMemo(
    () => (content ? `${content.text.length}:${fnv1a(content.text)}` : ''),
    [content],
  );
  const lang = languageOf(path);
  const { word, menu, setMenu, keepScroll, onCodeClick } = useNameClicks({
    path,
    lines,
    line,
    onLine,
    onNavigate,
  });
  const hitLines = useMemo(() => (content ? content.hits.map(([n]) => n) : []), [content]);

  const nameNow = (): string => {
    const selected = window.getSelection()?.toString().trim() ?? '';
    if (isIdentifier(selected)) return selected;
    return word;
  };
  useViewerKeys({
    hitLines,
    line,
    onLine,
    lookUp: (action) => {
      setMenu(null);
      const name = nameNow();
      if (name) onNavigate?.(name, action);
      else onSymbolPicker?.();
    },
  });

  return (
    <section className="viewer" role="region" aria-label={visibleText(path)} data-testid="file-viewer">
      <ViewerBar
        path={path}
        content={content}
        lineCount={lines.length}
        line={line}
        hitLines={hitLines}
        onLine={onLine}
        toolbar={toolbar}
      />
      <Breadcrumbs path={path} line={line} repoKey={repoKey} indexVersion={indexVersion} onLine={onLine} />
      {menu && word === menu.name && (
        <WordMenu
          name={menu.name}
          x={menu.x}
          y={menu.y}
          onChoose={(action) => {
            setMenu(null);
            onNavigate?.(menu.name, action);
          }}
          onClose={() => setMenu(null)}
        />
      )}
      <FileStatus path={path} loaded={loaded} />
      {content && (
        <CodeLines
          key={path}
          path={path}
          lines={lines}
          textVersion={textVersion}
          hitsByLine={hitsByLine}
          firstHit={content.hits[0]?.[0] ?? 0}
          lang={lang}
          word={word}
          line={line}
          keepScroll={keepScroll}
          onLine={onLine}
          onCodeClick={onCodeClick}
          onScroll={menu ? () => setMenu(null) : undefined}
        />
      )}
    </section>
  );
}

/**
 * A file's lines, only those on screen in the page. One per file (keyed by path): a new list
 * starts at the top, so the virtualizer never writes the last file's scroll position into it,
 * which made the browser lay the new file out inside React's commit (trace: 50-90 ms).
 */
function CodeLines({
  path,
  lines,
  textVersion,
  hitsByLine,
  firstHit,
  lang,
  word,
  line,
  keepScroll,
  onLine,
  onCodeClick,
  onScroll,
}: {
  path: string;
  lines: string[];
  /** A hash of the text (the colouring starts afresh when it changes). */
  textVersion: string;
  hitsByLine: Map<number, HitRange[]>;
  /** The first hit's line (0: none): where the file opens without a line in the address. */
  firstHit: number;
  lang: ReturnType<typeof languageOf>;
  /** The name under the cursor: its occurrences are marked. */
  word: string;
  line: number;
  /** Set by a click on a name: the line moves without the view scrolling to centre it. */
  keepScroll: RefObject<boolean>;
  onLine: (line: number) => void;
  onCodeClick: (e: React.MouseEvent<HTMLDivElement>) => void;
  onScroll?: () => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    ...lazyMeasureOptions(),
  });

  // Land on the line from the URL (or the first hit).
  useEffect(() => {
    if (!lines.length) return;
    if (keepScroll.current) {
      keepScroll.current = false;
      return;
    }
    const target = line > 0 ? line : firstHit;
    if (target > 0) virtualizer.scrollToIndex(Math.min(target, lines.length) - 1, { align: 'center' });
    // a new list is at the top already (a scroll would lay the page out for nothing)
    else if (virtualizer.scrollOffset) virtualizer.scrollToOffset(0);
  }, [firstHit, line, lines.length, virtualizer, keepScroll]);

  const width = String(lines.length).length;
  const items = virtualizer.getVirtualItems();
  const syntax = useSyntax(
    path,
    textVersion,
    lines.length,
    (items[0]?.index ?? 0) + 1,
    (items[items.length - 1]?.index ?? 0) + 1,
  );
  return (
    <div
      ref={scrollRef}
      className="viewer-scroll"
      data-syntax={syntax.mode}
      tabIndex={0}
      aria-label={`Contents of ${visibleText(path)}`}
      data-testid="viewer-lines"
      onClick={onCodeClick}
      onScroll={onScroll}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}>
        {items.map((item) => {
          const n = item.index + 1;
          const spans = syntax.spansOf(n);
          const text = lines[item.index];
          const hits = hitsByLine.get(n);
          const occ = !hits && word ? wholeWordRanges(text, word) : null;
          return (
            <div
              key={item.index}
              className={`code-line${n === line ? ' current' : ''}`}
              data-line={n}
              data-testid="code-line"
              aria-current={n === line ? 'true' : undefined}
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
              <button
                type="button"
                tabIndex={-1}
                className="ln"
                style={{ width: `${width + 2}ch` }}
                aria-label={`Line ${n}`}
                onClick={() => onLine(n)}
              >
                {n}
              </button>
              <span className="code">
                {occ && occ.length ? (
                  <CodeText text={text} lang={lang} spans={spans} hits={occ} markClass="occ" />
                ) : (
                  <CodeText text={text} lang={lang} spans={spans} hits={hits} />
                )}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
