/**
 * What completion offers from the open workspace: the roots' names (with several open), and,
 * read the first time a `lang:` or `file:` value is completed, the languages of its files (by
 * extension, from list_directory) and its top-level folders (the tree's listing).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FilterField } from '../../core/query/types';
import type { EngineClient } from '../../worker/client';
import { useEngine } from '../engine';
import { languagesOf, type CompletionSources } from './query-complete';

interface Listed {
  items?: { path: string; type: string }[];
}

async function readLanguages(engine: EngineClient) {
  const listed = (await engine.callTool('list_directory', { directoryPath: '', recursive: true })) as Listed;
  return languagesOf((listed.items ?? []).filter((i) => i.type === 'file').map((i) => i.path));
}

async function readFolders(engine: EngineClient, roots: readonly string[]): Promise<string[]> {
  // with several roots the top level is the roots: a root's folders are what `file:` names
  const tops = roots.length > 1 ? roots : [''];
  const names = new Set<string>();
  for (const top of tops)
    for (const e of await engine.listDir(top))
      if (e.kind === 'directory' && !e.skipped) names.add(e.path.slice(top ? top.length + 1 : 0));
  return [...names].sort();
}

export function useCompletionSources(repoKey: string) {
  const engine = useEngine();
  const [sources, setSources] = useState<CompletionSources & { repoKey: string }>({
    repoKey,
    languages: null,
    roots: [],
    folders: null,
  });
  /** The open roots' names when several are open ([] for one); null until known. */
  const [roots, setRoots] = useState<{ key: string; names: string[] } | null>(null);
  const asked = useRef(new Set<string>());

  useEffect(() => {
    let live = true;
    asked.current = new Set();
    setSources({ repoKey, languages: null, roots: [], folders: null });
    engine.roots().then(
      (list) => {
        if (!live) return;
        const names = list.length > 1 ? list.map((r) => r.name) : [];
        setRoots({ key: repoKey, names });
        setSources((s) => ({ ...s, roots: names }));
      },
      () => live && setRoots({ key: repoKey, names: [] }),
    );
    return () => {
      live = false;
    };
  }, [engine, repoKey]);

  /** Read the values of `field` if they are not yet. */
  const load = useCallback(
    (field: FilterField) => {
      if ((field !== 'lang' && field !== 'file') || asked.current.has(field) || !roots) return;
      asked.current.add(field);
      const key = repoKey;
      const done = (patch: Partial<CompletionSources>) =>
        setSources((s) => (s.repoKey === key ? { ...s, ...patch } : s));
      if (field === 'lang')
        readLanguages(engine).then(
          (languages) => done({ languages }),
          () => done({ languages: [] }),
        );
      else
        readFolders(engine, roots.names).then(
          (folders) => done({ folders }),
          () => done({ folders: [] }),
        );
    },
    [engine, repoKey, roots],
  );

  return { sources, load, rootNames: roots && roots.key === repoKey ? roots.names : null };
}
