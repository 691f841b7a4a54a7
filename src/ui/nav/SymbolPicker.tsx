/**
 * Go to symbol: in the workspace (Ctrl/Cmd+T; fuzzy over every definition's name, from the
 * worker) or in the open file (Ctrl/Cmd+Shift+O; its outline, filtered here). Arrow keys move,
 * Enter opens the symbol's line, Escape closes.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { toQuarryError } from '../../core/errors';
import type { ChunkRef } from '../../worker/protocol';
import { useEngine } from '../engine';
import { Highlighted } from '../QuickOpen';
import { useFocusTrap } from '../useFocusTrap';
import { VisibleText } from '../VisibleText';
import { SymbolKind } from './SymbolKind';
import { flattenOutline, useOutline } from './use-outline';

export interface SymbolItem {
  name: string;
  kind: ChunkRef['chunkType'];
  path: string;
  line: number;
  positions: number[];
  depth?: number;
}

/** Characters of `query` in order in `name` (case-insensitive), on word starts where that works; null when they are not all there. */
export function subsequence(name: string, query: string): number[] | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  const lower = name.toLowerCase();
  const start = (i: number) =>
    i === 0 || /[^\p{L}\p{N}]/u.test(name[i - 1]) || (name[i] !== lower[i] && name[i - 1] === lower[i - 1]);
  const align = (wordStarts: boolean): number[] | null => {
    const out: number[] = [];
    let from = 0;
    for (const ch of q) {
      let at = lower.indexOf(ch, from);
      if (wordStarts) while (at >= 0 && !start(at)) at = lower.indexOf(ch, at + 1);
      if (at < 0) return null;
      out.push(at);
      from = at + 1;
    }
    return out;
  };
  return align(true) ?? align(false);
}

export function SymbolPicker({
  mode,
  path,
  repoKey,
  indexVersion,
  onOpen,
  onClose,
}: {
  mode: 'workspace' | 'file';
  path: string;
  repoKey: string;
  indexVersion: number;
  onOpen: (path: string, line: number) => void;
  onClose: () => void;
}) {
  const engine = useEngine();
  const [query, setQuery] = useState('');
  const [remote, setRemote] = useState<{ items: SymbolItem[]; error: string; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  useFocusTrap(dialogRef);
  const outline = useOutline(mode === 'file' ? path : '', repoKey, indexVersion);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  useEffect(() => {
    if (mode !== 'workspace') return;
    let live = true;
    engine.workspaceSymbols(query, 60).then(
      (hits) =>
        live &&
        setRemote({
          items: hits.map((h) => ({
            name: h.name,
            kind: h.chunkType,
            path: h.path,
            line: h.line,
            positions: h.positions,
          })),
          error: '',
          query,
        }),
      (err) => live && setRemote({ items: [], error: toQuarryError(err).message, query }),
    );
    return () => {
      live = false;
    };
  }, [engine, mode, query]);

  const local = useMemo<SymbolItem[]>(() => {
    if (mode !== 'file' || outline.state !== 'ready') return [];
    const out: SymbolItem[] = [];
    for (const { node, depth } of flattenOutline(outline.outline)) {
      const positions = subsequence(node.name, query);
      if (positions)
        out.push({
          name: node.name,
          kind: node.chunkType,
          path,
          line: node.line,
          positions,
          depth: query ? 0 : depth,
        });
    }
    return out;
  }, [mode, outline, query, path]);

  const items = mode === 'workspace' ? (remote?.items ?? []) : local;
  const error =
    mode === 'workspace' ? (remote?.error ?? '') : outline.state === 'error' ? outline.message : '';
  const loading = mode === 'workspace' ? !remote : outline.state === 'loading';
  const shown = Math.min(active, Math.max(0, items.length - 1));
  const choose = (item: SymbolItem | undefined) => {
    if (!item) return;
    onOpen(item.path, item.line);
    onClose();
  };
  const label = mode === 'workspace' ? 'Go to symbol in workspace' : 'Go to symbol in file';

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-label={label}
        className="quick-open"
        data-testid="symbol-picker"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive(Math.min(items.length - 1, shown + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive(Math.max(0, shown - 1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            choose(items[shown]);
          }
        }}
      >
        <input
          ref={inputRef}
          role="combobox"
          aria-label="Symbol name"
          aria-expanded={items.length > 0}
          aria-controls="symbol-list"
          aria-activedescendant={items[shown] ? `sym-${shown}` : undefined}
          aria-autocomplete="list"
          placeholder={
            mode === 'workspace'
              ? 'Type a symbol name (functions, classes, types…)'
              : 'Type to filter this file’s symbols'
          }
          value={query}
          spellCheck={false}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
        />
        {error && (
          <p className="inline-error" role="alert">
            {error}
          </p>
        )}
        <ul role="listbox" id="symbol-list" aria-label="Symbols" className="quick-list">
          {items.map((it, i) => (
            <li
              key={`${it.path}:${it.line}:${it.name}`}
              id={`sym-${i}`}
              role="option"
              aria-selected={i === shown}
              className={i === shown ? 'active' : ''}
              data-testid="symbol-item"
              style={it.depth ? { paddingLeft: 8 + it.depth * 14 } : undefined}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(it)}
              onMouseMove={() => setActive(i)}
            >
              <SymbolKind kind={it.kind} />
              <span className="qo-name">
                <Highlighted path={it.name} positions={it.positions} />
              </span>
              <span className="qo-dir">
                {mode === 'workspace' ? <VisibleText text={it.path} /> : null}:{it.line}
              </span>
            </li>
          ))}
          {!items.length && !error && (
            <li className="qo-empty" role="presentation">
              {loading ? 'Looking…' : query ? `No symbol matches “${query}”.` : 'No symbols here.'}
            </li>
          )}
        </ul>
      </div>
    </div>
  );
}
