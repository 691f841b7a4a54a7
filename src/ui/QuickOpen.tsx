/** Quick open (Ctrl/Cmd+P): fuzzy, ranked file names from the worker; Enter opens, Escape closes. */
import { toQuarryError } from '../core/errors';
import { useEffect, useState } from 'react';
import type { QuickOpenHit } from '../worker/protocol';
import { useEngine } from './engine';
import { Highlighted, PickerDialog } from './PickerDialog';

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

  return (
    <PickerDialog
      label="Quick open"
      testId="quick-open"
      inputLabel="File name"
      placeholder="Type a file name (# for symbols)"
      query={query}
      onInput={(value) => {
        if (value === '#' && onSymbols) {
          onClose();
          onSymbols();
          return;
        }
        setQuery(value);
      }}
      listId="quick-open-list"
      listLabel="Files"
      optionIdPrefix="qo-"
      itemTestId="quick-open-item"
      items={hits}
      active={active}
      setActive={setActive}
      error={error}
      empty={<>No file name matches “{query}”.</>}
      itemKey={(h) => h.path}
      renderItem={(h) => {
        const slash = h.path.lastIndexOf('/');
        return (
          <>
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
          </>
        );
      }}
      onChoose={(h) => onOpen(h.path)}
      onClose={onClose}
    />
  );
}
