/**
 * The file viewer: only the lines on screen are in the DOM and coloured (a 50k-line file
 * opens at once), with line numbers, the current search's hits in <mark> (F3 / Shift+F3 move
 * between them), jump to line, "copy link" to a line, and breadcrumbs. It has a caret (nav/
 * use-caret.ts: arrows, Home/End, PageUp/Down, Ctrl+G; a click places it) whose name's
 * occurrences are marked: F12 goes to its definition, Shift+F12 finds its references, the
 * context-menu key (or Shift+F10) offers both, as a click on a name does; Ctrl/Cmd+click goes
 * at once. A name the pointer rests on, or Ctrl+K Ctrl+I at the caret, shows its definition's
 * signature and doc comment (nav/HoverCard.tsx). The hits are computed in the worker with the same matcher.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { inView, lazyMeasureOptions } from './virtual';
import {
  startTransition,
  useEffect,
  useEffectEvent,
  useId,
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
import { identifierAt, isIdentifier, wholeWordRanges } from '../core/nav/identifier';
import { Breadcrumbs } from './nav/Breadcrumbs';
import { GotoLine } from './nav/GotoLine';
import { HoverCard } from './nav/HoverCard';
import { useCaret, type CaretApi, type OnLine, type Reveal } from './nav/use-caret';
import { useCodeInput } from './nav/use-code-input';
import { useHover } from './nav/use-hover';
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

/** The file's lines, its hits by line, the lines with hits, and its text's identity for its colouring. */
function useFileLines(content: FileContent | null) {
  const lines = useMemo(() => {
    if (!content) return [];
    const all = content.text.split('\n');
    if (all.length > 1 && all[all.length - 1] === '') all.pop();
    return all.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  }, [content]);
  const hitsByLine = useMemo(() => new Map<number, HitRange[]>(content?.hits ?? []), [content]);
  // the same text read again (new search highlights) keeps its colouring
  const textVersion = useMemo(
    () => (content ? `${content.text.length}:${fnv1a(content.text)}` : ''),
    [content],
  );
  const hitLines = useMemo(() => (content ? content.hits.map(([n]) => n) : []), [content]);
  return { lines, hitsByLine, textVersion, hitLines };
}

/** The viewer's bar: the path, the file's size, the caret and go to line, copy link, the matches, the extra tools. */
function ViewerBar({
  path,
  content,
  lineCount,
  line,
  hitLines,
  onLine,
  caret,
  gotoRef,
  toolbar,
}: {
  path: string;
  content: FileContent | null;
  lineCount: number;
  line: number;
  hitLines: number[];
  onLine: (line: number) => void;
  caret: CaretApi;
  gotoRef: RefObject<HTMLInputElement | null>;
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
      <GotoLine
        lineCount={lineCount}
        caret={caret.shown ? caret.caret : null}
        inputRef={gotoRef}
        onGo={caret.jumpTo}
        onDone={() => document.querySelector<HTMLElement>('[data-testid="viewer-lines"]')?.focus()}
      />
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
  col = 0,
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
  /** The caret's 1-based column on `line` (0: none), from the address. */
  col?: number;
  highlight: FileHighlight | null;
  repoKey: string;
  /** Move to a line (and a 1-based caret column); `push`: as a jump (Back returns). */
  onLine: OnLine;
  indexVersion?: number;
  /** Look a name up: its definitions (`direct`: open the only one at once) or its references. */
  onNavigate?: (name: string, action: NavAction) => void;
  /** F12 with nothing chosen: offer the file's symbols instead. */
  onSymbolPicker?: () => void;
}) {
  const loaded = useFileContent(path, highlight, repoKey);
  const content = loaded.state === 'ready' ? loaded.content : null;
  const { lines, hitsByLine, textVersion, hitLines } = useFileLines(content);
  const lang = languageOf(path);
  const scrollRef = useRef<HTMLDivElement>(null);
  const gotoRef = useRef<HTMLInputElement>(null);
  const caret = useCaret({
    path,
    lines,
    line,
    col,
    firstHit: content?.hits[0]?.[0] ?? 0,
    onLine,
    scrollRef,
    rowHeight: ROW_HEIGHT,
  });
  const hover = useHover({ path, lines, indexVersion, scrollRef });
  const hoverId = useId();
  // the name at the caret (placed by a click, the keys or a jump): its occurrences are marked, F12 looks it up
  const word =
    caret.shown && caret.placed
      ? (identifierAt(lines[caret.caret.line - 1] ?? '', caret.caret.col)?.name ?? '')
      : '';
  const input = useCodeInput({ lines, word, caret, hover, scrollRef, onNavigate });
  useViewerKeys({
    hitLines,
    line,
    onLine,
    lookUp: (action) => {
      // a selected name, or the one at the caret
      const selected = window.getSelection()?.toString().trim() ?? '';
      const name = isIdentifier(selected) ? selected : word;
      if (name) input.lookUp(name, action);
      else onSymbolPicker?.();
    },
    gotoLine: () => {
      gotoRef.current?.focus();
      gotoRef.current?.select();
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
        caret={caret}
        gotoRef={gotoRef}
        toolbar={toolbar}
      />
      <Breadcrumbs
        path={path}
        line={caret.shown ? caret.caret.line : line}
        repoKey={repoKey}
        indexVersion={indexVersion}
        onLine={(n) => caret.jumpTo(n)}
      />
      <Popups input={input} hover={hover} hoverId={hoverId} />
      <FileStatus path={path} loaded={loaded} />
      {content && (
        <CodeLines
          key={path}
          path={path}
          scrollRef={scrollRef}
          lines={lines}
          textVersion={textVersion}
          hitsByLine={hitsByLine}
          lang={lang}
          word={word}
          caret={caret}
          describedBy={hover.card ? hoverId : undefined}
          events={{
            onClick: input.onCodeClick,
            onKeyDown: input.onKeyDown,
            onBlur: input.onBlur,
            onFocus: input.onFocus,
            onContextMenu: input.onContextMenu,
            onMouseMove: hover.onMouseMove,
            onMouseLeave: hover.onMouseLeave,
            onScroll: input.menu || hover.card ? input.onScroll : undefined,
          }}
          wantsFocus={input.wantsFocus}
          onLineNumber={(n) => caret.place({ line: n, col: 0 }, false)}
        />
      )}
    </section>
  );
}

/** Over the code: the menu of a name (Go to definition, Find references) and the hover card. */
function Popups({
  input,
  hover,
  hoverId,
}: {
  input: ReturnType<typeof useCodeInput>;
  hover: ReturnType<typeof useHover>;
  hoverId: string;
}) {
  const { menu } = input;
  return (
    <>
      {menu && (
        <WordMenu
          name={menu.name}
          x={menu.x}
          y={menu.y}
          autoFocus={menu.byKey}
          onChoose={(action) => input.lookUp(menu.name, action)}
          onClose={input.closeMenu}
        />
      )}
      {hover.card && (
        <HoverCard id={hoverId} card={hover.card} onEnter={hover.onCardEnter} onLeave={hover.onCardLeave} />
      )}
    </>
  );
}

/** The view follows the caret: centred on a jump, as little as needed for a key, its column kept in sight. */
function useReveal(
  reveal: Reveal,
  lineCount: number,
  virtualizer: ReturnType<typeof useVirtualizer<HTMLDivElement, Element>>,
  scrollRef: RefObject<HTMLDivElement | null>,
) {
  useEffect(() => {
    if (!lineCount || reveal.mode === 'none') return;
    const index = Math.min(reveal.line, lineCount) - 1;
    if (reveal.mode === 'center') {
      if (index >= 0) virtualizer.scrollToIndex(index, { align: 'center' });
      // a new list is at the top already (a scroll would lay the page out for nothing)
      else if (virtualizer.scrollOffset) virtualizer.scrollToOffset(0);
    } else if (!inView(virtualizer, index, ROW_HEIGHT)) virtualizer.scrollToIndex(index, { align: 'auto' });
    // sideways: once the caret's row is drawn, scroll a long line to its column (a file opened
    // at a line's start has nothing to scroll: no layout read then)
    if (index < 0 || (reveal.mode === 'center' && !reveal.col)) return;
    const frame = requestAnimationFrame(() => {
      const box = scrollRef.current;
      const mark = box?.querySelector('.caret');
      if (!box || !mark) return;
      const c = mark.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      if (c.left < b.left + 40 && box.scrollLeft > 0) box.scrollLeft -= b.left + 80 - c.left;
      else if (c.right > b.right - 24) box.scrollLeft += c.right - b.right + 80;
    });
    return () => cancelAnimationFrame(frame);
  }, [reveal, lineCount, virtualizer, scrollRef]);
}

type CodeEvents = Pick<
  React.HTMLAttributes<HTMLDivElement>,
  | 'onClick'
  | 'onKeyDown'
  | 'onBlur'
  | 'onFocus'
  | 'onMouseMove'
  | 'onMouseLeave'
  | 'onScroll'
  | 'onContextMenu'
>;

/**
 * A file's lines, only those on screen in the page. One per file (keyed by path): a new list
 * starts at the top, so the virtualizer never writes the last file's scroll position into it,
 * which made the browser lay the new file out inside React's commit (trace: 50-90 ms).
 */
function CodeLines({
  path,
  scrollRef,
  lines,
  textVersion,
  hitsByLine,
  lang,
  word,
  caret,
  describedBy,
  events,
  wantsFocus,
  onLineNumber,
}: {
  path: string;
  scrollRef: RefObject<HTMLDivElement | null>;
  lines: string[];
  /** A hash of the text (the colouring starts afresh when it changes). */
  textVersion: string;
  hitsByLine: Map<number, HitRange[]>;
  lang: ReturnType<typeof languageOf>;
  /** The name at the caret: its occurrences are marked. */
  word: string;
  caret: CaretApi;
  /** The hover card's id while it is shown. */
  describedBy?: string;
  events: CodeEvents;
  /** The code had the focus when the last file was left (a jump): the new one takes it. */
  wantsFocus: RefObject<boolean>;
  onLineNumber: (line: number) => void;
}) {
  const virtualizer = useVirtualizer({
    count: lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    ...lazyMeasureOptions(),
  });
  useReveal(caret.reveal, lines.length, virtualizer, scrollRef);
  useEffect(() => {
    const active = document.activeElement;
    if (wantsFocus.current && (!active || active === document.body))
      scrollRef.current?.focus({ preventScroll: true });
  }, [wantsFocus, scrollRef]);

  const width = String(lines.length).length;
  const items = virtualizer.getVirtualItems();
  const syntax = useSyntax(
    path,
    textVersion,
    lines.length,
    (items[0]?.index ?? 0) + 1,
    (items[items.length - 1]?.index ?? 0) + 1,
  );
  const current = caret.shown ? caret.caret.line : 0;
  return (
    <div
      ref={scrollRef}
      className="viewer-scroll"
      data-syntax={syntax.mode}
      tabIndex={0}
      aria-label={`Contents of ${visibleText(path)}`}
      aria-describedby={describedBy}
      aria-keyshortcuts="F12 Shift+F12 Control+G Alt+ArrowLeft Alt+ArrowRight"
      data-testid="viewer-lines"
      {...events}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: '100%' }}>
        {items.map((item) => {
          const n = item.index + 1;
          const spans = syntax.spansOf(n);
          const text = lines[item.index];
          const hits = hitsByLine.get(n);
          const occ = !hits && word ? wholeWordRanges(text, word) : null;
          const at = n === current ? caret.caret.col : undefined;
          return (
            <div
              key={item.index}
              className={`code-line${n === current ? ' current' : ''}`}
              data-line={n}
              data-testid="code-line"
              aria-current={n === current ? 'true' : undefined}
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
              <button
                type="button"
                tabIndex={-1}
                className="ln"
                style={{ width: `${width + 2}ch` }}
                aria-label={`Line ${n}`}
                onClick={() => onLineNumber(n)}
              >
                {n}
              </button>
              <span className="code">
                {occ && occ.length ? (
                  <CodeText text={text} lang={lang} spans={spans} hits={occ} markClass="occ" caret={at} />
                ) : (
                  <CodeText text={text} lang={lang} spans={spans} hits={hits} caret={at} />
                )}
              </span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
