/**
 * What looking a name up does: Go to definition opens the definition at once when it is the
 * only one, or the only one in the file or in what the file imports (the panel then lists the
 * others too); otherwise the panel is the picker (also when there is none, or the index is not
 * ready). Find references opens the panel. The lookup's file (`from`) ranks definitions; it stays while the person moves
 * through the results.
 */
import { useState } from 'react';
import type { UpdateView } from '../use-view-state';
import type { ViewState } from '../url-state';
import { useEngine } from '../engine';
import type { NavAction } from './WordMenu';

export function useNavigation(view: ViewState, update: UpdateView) {
  const engine = useEngine();
  const [from, setFrom] = useState(view.file);
  const lookUp = (name: string, action: NavAction) => {
    setFrom(view.file);
    if (action === 'references') {
      update({ sym: name, nav: 'refs' }, { push: true });
      return;
    }
    engine.definitions({ name, path: view.file }).then(
      (r) => {
        const [first, second] = r.definitions;
        // the only one, or the only one in this file or the files it imports: open it (the others stay listed)
        const sure =
          first &&
          (!second ||
            (first.rank !== second.rank && (first.rank === 'same file' || first.rank === 'imported')));
        if (sure)
          update(
            {
              file: first.path,
              line: first.line,
              // the caret on the definition's name (Back returns to where the lookup was made)
              col: first.column[1] > first.column[0] ? first.column[0] + 1 : 0,
              sym: name,
              nav: second ? 'defs' : '',
              diff: '',
              blame: false,
            },
            { push: true },
          );
        else update({ sym: name, nav: 'defs' }, { push: true });
      },
      // the panel says why (the index is still being built, ...)
      () => update({ sym: name, nav: 'defs' }, { push: true }),
    );
  };
  return { lookUp, from: view.sym ? from : view.file };
}
