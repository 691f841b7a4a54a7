/**
 * Small pieces the three analysis views share: links into the file viewer, badges, and the
 * loading / error / empty notes. Repository text is only ever rendered as React text.
 */
import type { MouseEvent, ReactNode } from 'react';
import { isUserError, type QuarryError } from '../../core/errors';
import { serializeViewState, type ViewState } from '../url-state';
import type { UpdateView } from '../use-view-state';
import { VisibleText } from '../VisibleText';

export interface ViewProps {
  view: ViewState;
  update: UpdateView;
  repoKey: string;
}

/** Opens `path` at `line` in the file viewer; a real link, so it can also open in a new tab. */
export function FileLink({
  view,
  update,
  path,
  line,
  children,
  label,
  className,
}: {
  view: ViewState;
  update: UpdateView;
  path: string;
  line?: number;
  children: ReactNode;
  /** Accessible name when the visible text is not enough. */
  label?: string;
  className?: string;
}) {
  const target = { file: path, line: line ?? 0 };
  const href = `${location.pathname}${serializeViewState({ ...view, ...target })}`;
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    update(target, { push: true });
  };
  const current = view.file === path && (line === undefined || view.line === line);
  return (
    <a
      href={href}
      onClick={onClick}
      aria-label={label}
      className={`file-link${className ? ` ${className}` : ''}`}
      aria-current={current ? 'location' : undefined}
    >
      {children}
    </a>
  );
}

/** A workspace path that may wrap after any '/' (never in the middle of a name); hidden characters shown. */
export function PathText({ path, line }: { path: string; line?: number }) {
  const parts = path.split('/');
  return (
    <span className="path-wrap">
      {parts.map((p, i) =>
        i < parts.length - 1 ? (
          <span key={i}>
            <VisibleText text={p} />/<wbr />
          </span>
        ) : (
          <span key={i} className="path-last">
            <VisibleText text={p} />
            {line ? `:${line}` : ''}
          </span>
        ),
      )}
    </span>
  );
}

export function Badge({ kind, children, title }: { kind: string; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge-${kind}`} title={title}>
      {children}
    </span>
  );
}

export function Loading({ children }: { children: ReactNode }) {
  return (
    <div className="view-note" role="status" data-testid="view-loading">
      <span className="spinner" aria-hidden="true" /> {children}
    </div>
  );
}

export function ErrorNote({
  error,
  what,
  onRetry,
}: {
  error: QuarryError;
  what: string;
  onRetry?: () => void;
}) {
  const user = isUserError(error);
  return (
    <div className="view-note view-error" role="alert" data-testid="view-error">
      <p>
        <strong>{user ? 'Check the input.' : `Could not ${what}.`}</strong>{' '}
        <VisibleText text={error.message} multiline />
      </p>
      {!user && (
        <p>
          {error.code === 'NotFound'
            ? 'Open a folder or the demo first.'
            : 'Try again; if it keeps failing, reload the page or open the folder again.'}{' '}
          {onRetry && (
            <button type="button" onClick={onRetry}>
              Try again
            </button>
          )}
        </p>
      )}
    </div>
  );
}

export function EmptyNote({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="view-note" data-testid="view-empty">
      <p>
        <strong>{title}</strong>
      </p>
      {children}
    </div>
  );
}

/** Case-insensitive "contains" over several fields. */
export function matchesText(filter: string, ...fields: Array<string | undefined>): boolean {
  const f = filter.trim().toLowerCase();
  if (!f) return true;
  return fields.some((x) => x !== undefined && x.toLowerCase().includes(f));
}
