/**
 * Go to symbol: in the workspace (Ctrl/Cmd+T; fuzzy over every definition's name, from the
 * worker) or in the open file (Ctrl/Cmd+Shift+O; its outline, filtered here). Arrow keys move,
 * Enter opens the symbol's line, Escape closes.
 */
import { useEffect, useMemo, useState } from 'react';
import { toQuarryError } from '../../core/errors';
import type { ChunkRef } from '../../worker/protocol';
import { useEngine } from '../engine';
import { Highlighted, PickerDialog } from '../PickerDialog';
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
  const outline = useOutline(mode === 'file' ? path : '', repoKey, indexVersion);

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

  return (
    <PickerDialog
      label={mode === 'workspace' ? 'Go to symbol in workspace' : 'Go to symbol in file'}
      testId="symbol-picker"
      inputLabel="Symbol name"
      placeholder={
        mode === 'workspace'
          ? 'Type a symbol name (functions, classes, types…)'
          : 'Type to filter this file’s symbols'
      }
      query={query}
      onInput={(value) => {
        setQuery(value);
        setActive(0);
      }}
      listId="symbol-list"
      listLabel="Symbols"
      optionIdPrefix="sym-"
      itemTestId="symbol-item"
      items={items}
      active={active}
      setActive={setActive}
      error={error}
      alertError
      empty={loading ? 'Looking…' : query ? `No symbol matches “${query}”.` : 'No symbols here.'}
      itemKey={(it) => `${it.path}:${it.line}:${it.name}`}
      itemStyle={(it) => (it.depth ? { paddingLeft: 8 + it.depth * 14 } : undefined)}
      renderItem={(it) => (
        <>
          <SymbolKind kind={it.kind} />
          <span className="qo-name">
            <Highlighted path={it.name} positions={it.positions} />
          </span>
          <span className="qo-dir">
            {mode === 'workspace' ? <VisibleText text={it.path} /> : null}:{it.line}
          </span>
        </>
      )}
      onChoose={(it) => onOpen(it.path, it.line)}
      onClose={onClose}
    />
  );
}
