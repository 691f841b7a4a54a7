/** The line under the search box (summary, spinner) and the inline error, for every search mode. */
import type { ReactNode } from 'react';
import { isUserError, type QuarryError } from '../core/errors';
import { VisibleText } from './VisibleText';

export function SearchStatus({
  summary,
  running,
  error,
}: {
  summary: ReactNode;
  running: boolean;
  error: QuarryError | null;
}) {
  return (
    <>
      <div className="search-summary" data-testid="search-summary" aria-live="polite">
        {summary}
        {running && <span className="spinner" aria-hidden="true" />}
      </div>
      {error && (
        <div className="inline-error" role="alert" data-testid="search-error">
          <VisibleText
            text={isUserError(error) ? error.message : `The search failed: ${error.message}`}
            multiline
          />
          {error.code === 'EngineRestarted' && (
            <div>The engine restarted; your repository is being reloaded.</div>
          )}
        </div>
      )}
    </>
  );
}
