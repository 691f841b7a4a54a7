/**
 * The strip of recently opened files above the viewer, most recent first (at most
 * MAX_RECENT_FILES per repository, kept across reloads): click one to open it, × to close it
 * (closing the open file opens the next one). Keyboard: Tab reaches the strip; ArrowLeft/Right
 * move between files, Home/End to the ends, Delete closes the focused one.
 */
import { useEffect, useRef, useSyncExternalStore, type KeyboardEvent } from 'react';
import { FileIcon } from '../shell/FileIcon';
import { visibleText } from '../visible-text';
import { VisibleText } from '../VisibleText';
import { afterClose, recentFiles, workspaceId } from './recent-files';

export function RecentFiles({
  repoKey,
  current,
  onOpen,
}: {
  repoKey: string;
  current: string;
  onOpen: (path: string) => void;
}) {
  const store = recentFiles();
  const repo = workspaceId(repoKey);
  const list = useSyncExternalStore(store.subscribe, () => store.list(repo));
  const stripRef = useRef<HTMLElement>(null);

  // Remember each file as it opens.
  useEffect(() => {
    if (current) store.opened(repo, current);
  }, [store, repo, current]);

  if (!list.length) return null;

  const focusAt = (i: number) => {
    const buttons = stripRef.current?.querySelectorAll<HTMLButtonElement>('.recent-open');
    if (!buttons?.length) return;
    buttons[Math.max(0, Math.min(buttons.length - 1, i))]?.focus();
  };
  const close = (path: string, i: number) => {
    const next = afterClose(list, path, current);
    store.close(repo, path);
    if (next !== current) onOpen(next);
    requestAnimationFrame(() => focusAt(Math.min(i, list.length - 2)));
  };
  const onKeyDown = (e: KeyboardEvent, path: string, i: number) => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => focusAt(i + 1),
      ArrowLeft: () => focusAt(i - 1),
      Home: () => focusAt(0),
      End: () => focusAt(list.length - 1),
      Delete: () => close(path, i),
    };
    const action = keys[e.key];
    if (action) {
      e.preventDefault();
      action();
    }
  };

  return (
    <nav ref={stripRef} className="recent-strip" aria-label="Recent files" data-testid="recent-files">
      <ul>
        {list.map((path, i) => {
          const name = path.slice(path.lastIndexOf('/') + 1);
          const isCurrent = path === current;
          return (
            <li key={path} className={`recent-tab${isCurrent ? ' current' : ''}`} data-path={path}>
              <button
                type="button"
                className="recent-open"
                aria-current={isCurrent ? 'page' : undefined}
                title={visibleText(path)}
                // one tab stop for the strip: the open file's (or the first)
                tabIndex={isCurrent || (!list.includes(current) && i === 0) ? 0 : -1}
                onClick={() => !isCurrent && onOpen(path)}
                onKeyDown={(e) => onKeyDown(e, path, i)}
              >
                <FileIcon path={name} />
                <span className="recent-name">
                  <VisibleText text={name} />
                </span>
              </button>
              <button
                type="button"
                className="recent-close"
                tabIndex={-1}
                aria-label={`Close ${visibleText(name)}`}
                title={`Close ${visibleText(path)}`}
                onClick={() => close(path, i)}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
