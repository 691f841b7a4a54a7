/** The URL is the store for view state: read on load and on back/forward, written on change. */
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import { readViewState, serializeViewState, type Overlong, type ViewState } from './url-state';

export type UpdateView = (patch: Partial<ViewState>, options?: { push?: boolean }) => void;

/**
 * View fields shown by controlled form inputs (the mode radios): their change renders at once,
 * or React would put the old choice back until the render is done.
 */
/** Fields that controlled form inputs show (radios, selects, filter boxes): React needs them set at once, not in a transition. */
const URGENT_FIELDS: ReadonlySet<keyof ViewState> = new Set([
  'mode',
  'rshow',
  'rtype',
  'xdepth',
  'include',
  'exclude',
  'ext',
]);

/** Read the address; a field over its cap is cut, and the cut said (`overlong`). */
function readAddress(): { state: ViewState; overlong: Overlong[] } {
  return readViewState(location.search);
}

/**
 * After a cut, make the address say the state (`state`: the latest, an update may have come
 * first). Replacing a 300,000-character address costs the browser ~70 ms: an effect, so not
 * in the task of the first render.
 */
function writeCutAddress(overlong: Overlong[], state: ViewState): void {
  const search = serializeViewState(state);
  if (overlong.length && location.search !== search)
    history.replaceState(history.state, '', `${location.pathname}${search}${location.hash}`);
}

/**
 * The view state, its updater (writes the address at once), a getter for code outside React,
 * and the fields the address held over their cap (with the message to show; [] once dismissed).
 */
export function useViewState(): [ViewState, UpdateView, () => ViewState, Overlong[], () => void] {
  const [initial] = useState(readAddress);
  const [state, setState] = useState<ViewState>(initial.state);
  const [overlong, setOverlong] = useState<Overlong[]>(initial.overlong);
  const current = useRef(state);
  useEffect(() => writeCutAddress(initial.overlong, current.current), [initial]);
  useEffect(() => {
    const onPop = () => {
      const read = readAddress();
      writeCutAddress(read.overlong, read.state);
      current.current = read.state;
      setState(read.state);
      setOverlong(read.overlong);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const update = useCallback<UpdateView>((patch, options) => {
    const next = { ...current.current, ...patch };
    if (('line' in patch || 'file' in patch) && !('col' in patch)) next.col = 0; // a new line, no caret column yet
    current.current = next;
    const url = `${location.pathname}${serializeViewState(next)}${location.hash}`;
    if (url !== `${location.pathname}${location.search}${location.hash}`) {
      if (options?.push) history.pushState(null, '', url);
      else history.replaceState(null, '', url);
    }
    // A new view (a file opened from a hit, the tree or Go to file, a query) renders as a
    // transition: in time slices, so a large file or a long list never renders in the task of
    // the click or key that asked for it (traced: 60-300 ms). The address changes at once.
    if (Object.keys(patch).some((k) => URGENT_FIELDS.has(k as keyof ViewState))) setState(next);
    else startTransition(() => setState(next));
  }, []);
  const get = useCallback(() => current.current, []);
  const dismiss = useCallback(() => setOverlong([]), []);
  return [state, update, get, overlong, dismiss];
}
