/** The URL is the store for view state: read on load and on back/forward, written on change. */
import { useCallback, useEffect, useState } from 'react';
import { parseViewState, serializeViewState, type ViewState } from './url-state';

export type UpdateView = (patch: Partial<ViewState>, options?: { push?: boolean }) => void;

export function useViewState(): [ViewState, UpdateView] {
  const [state, setState] = useState<ViewState>(() => parseViewState(location.search));
  useEffect(() => {
    const onPop = () => setState(parseViewState(location.search));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const update = useCallback<UpdateView>((patch, options) => {
    setState((prev) => {
      const next = { ...prev, ...patch };
      const url = `${location.pathname}${serializeViewState(next)}${location.hash}`;
      if (url !== `${location.pathname}${location.search}${location.hash}`) {
        if (options?.push) history.pushState(null, '', url);
        else history.replaceState(null, '', url);
      }
      return next;
    });
  }, []);
  return [state, update];
}
