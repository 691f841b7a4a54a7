/** The files the walk left out, then the files the ranked index leaves to text search, each with its reason. */
import { useEffect, useRef, useState } from 'react';
import type { Skipped } from '../core/walk/policy';
import { useEngine } from './engine';
import { VisibleText } from './VisibleText';
import { useFocusTrap } from './use-focus-trap';
import { formatCount, SKIP_REASON_TEXT } from './format';

export function SkippedDialog({ onClose }: { onClose: () => void }) {
  const engine = useEngine();
  const [data, setData] = useState<{ total: number; items: Skipped[] } | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  useFocusTrap(dialogRef);
  useEffect(() => {
    closeRef.current?.focus();
    void engine.skipped(0, 1000).then(setData, () => setData({ total: 0, items: [] }));
  }, [engine]);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby="skipped-title"
        className="skipped-dialog"
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <header>
          <h2 id="skipped-title">Skipped files</h2>
          <button type="button" ref={closeRef} onClick={onClose}>
            Close
          </button>
        </header>
        {!data && <p>Loading…</p>}
        {data && (
          <>
            <p>
              {formatCount(data.total)} entries were left out of search or of the ranked index (text search
              still reads minified, generated and unparsed files).
              {data.total > data.items.length
                ? ` The first ${formatCount(data.items.length)} are listed.`
                : ''}
            </p>
            <table>
              <thead>
                <tr>
                  <th scope="col">Path</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((s) => (
                  <tr key={s.path + s.reason}>
                    <td className="mono">
                      <VisibleText text={s.path} />
                      {s.directory ? '/' : ''}
                    </td>
                    <td>
                      {SKIP_REASON_TEXT[s.reason] ?? s.reason}
                      {s.detail ? ` (${s.detail})` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </div>
    </div>
  );
}
