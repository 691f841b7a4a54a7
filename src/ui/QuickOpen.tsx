/** Quick open (Ctrl/Cmd+P): fuzzy, ranked file names from the worker; Enter opens, Escape closes. */
import { toQuarryError } from '../core/errors';
import { useEffect, useRef, useState } from 'react';
import type { QuickOpenHit } from '../worker/protocol';
import { useEngine } from './engine';
import { VisibleText } from './VisibleText';
import { useFocusTrap } from './useFocusTrap';

export function Highlighted({ path, positions }: { path: string; positions: number[] }) {
  const set = new Set(positions);
  const out: React.ReactNode[] = [];
  let run = '';
  let marked = false;
  const flush = (key: number) => {
    if (!run) return;
    out.push(
      marked ? (
        <mark key={key}>
          <VisibleText text={run} />
        </mark>
      ) : (
        <span key={key}>
          <VisibleText text={run} />
        </span>
      ),
    );
    run = '';
  };
  for (let i = 0; i < path.length; i++) {
    const m = set.has(i);
    if (m !== marked) {
      flush(i);
      marked = m;
    }
    run += path[i];
  }
  flush(path.length);
  return <>{out}</>;
}

/** `#` typed first switches to "go to symbol in workspace", as in VS Code. */
export function QuickOpen({
  onOpen,
  onClose,
  onSymbols,
}: {
  onOpen: (path: string) => void;
  onClose: () => void;
  onSymbols?: () => void;
}) {
  const engine = useEngine();
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<QuickOpenHit[]>([]);
  const [active, setActive] = useState(0);
  const [error, setError] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  // before the input takes focus: the trap notes what had it, to give it back on close
  useFocusTrap(dialogRef);

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  useEffect(() => {
    let current = true;
    engine.quickOpen(query, 50).then(
      (h) => {
        if (!current) return;
        setHits(h);
        setActive(0);
        setError('');
      },
      (err) => current && setError(toQuarryError(err).message),
    );
    return () => {
      current = false;
    };
  }, [query, engine]);

  const choose = (hit: QuickOpenHit | undefined) => {
    if (!hit) return;
    onOpen(hit.path);
    onClose();
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-label="Quick open"
        className="quick-open"
        data-testid="quick-open"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            onClose();
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((a) => Math.min(hits.length - 1, a + 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(0, a - 1));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            choose(hits[active]);
          }
        }}
      >
        <input
          ref={inputRef}
          role="combobox"
          aria-label="File name"
          aria-expanded={hits.length > 0}
          aria-controls="quick-open-list"
          aria-activedescendant={hits[active] ? `qo-${active}` : undefined}
          aria-autocomplete="list"
          placeholder="Type a file name (# for symbols)"
          value={query}
          spellCheck={false}
          onChange={(e) => {
            if (e.target.value === '#' && onSymbols) {
              onClose();
              onSymbols();
              return;
            }
            setQuery(e.target.value);
          }}
        />
        {error && <p className="inline-error">{error}</p>}
        <ul role="listbox" id="quick-open-list" aria-label="Files" className="quick-list">
          {hits.map((h, i) => {
            const slash = h.path.lastIndexOf('/');
            return (
              <li
                key={h.path}
                id={`qo-${i}`}
                role="option"
                aria-selected={i === active}
                className={i === active ? 'active' : ''}
                data-testid="quick-open-item"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(h)}
                onMouseMove={() => setActive(i)}
              >
                <span className="qo-name">
                  <Highlighted
                    path={h.path.slice(slash + 1)}
                    positions={h.positions.filter((p) => p > slash).map((p) => p - slash - 1)}
                  />
                </span>
                <span className="qo-dir">
                  <Highlighted
                    path={h.path.slice(0, Math.max(0, slash))}
                    positions={h.positions.filter((p) => p < slash)}
                  />
                </span>
              </li>
            );
          })}
          {!hits.length && !error && (
            <li className="qo-empty" role="presentation">
              No file name matches “{query}”.
            </li>
          )}
        </ul>
      </div>
    </div>
  );
}
