/** The URL is the store for view state: read on load and on back/forward, written on change. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { parseViewState, serializeViewState, type ViewState } from './url-state';

export type UpdateView = (patch: Partial<ViewState>, options?: { push?: boolean }) => void;

/** The view state, its updater (writes the address at once), and a getter for code outside React. */
export function useViewState(): [ViewState, UpdateView, () => ViewState] {
  const [state, setState] = useState<ViewState>(() => parseViewState(location.search));
  const current = useRef(state);
  useEffect(() => {
    const onPop = () => {
      current.current = parseViewState(location.search);
      setState(current.current);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const update = useCallback<UpdateView>((patch, options) => {
    const next = { ...current.current, ...patch };
    current.current = next;
    const url = `${location.pathname}${serializeViewState(next)}${location.hash}`;
    if (url !== `${location.pathname}${location.search}${location.hash}`) {
      if (options?.push) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
    }
    setState(next);
  }, []);
  const get = useCallback(() => current.current, []);
  return [state, update, get];
}
