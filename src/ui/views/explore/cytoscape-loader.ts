/**
 * Cytoscape, loaded on first use: the drawn graphs are the only place that needs it, so the
 * main bundle does not carry it (Vite splits a dynamic import into its own chunk). A failed
 * load (offline, a stale deploy) is forgotten, so the next try loads again.
 */
import type cytoscape from 'cytoscape';

export type Cytoscape = typeof cytoscape;

let loading: Promise<Cytoscape> | null = null;

export function loadCytoscape(): Promise<Cytoscape> {
  if (!loading) {
    loading = import('cytoscape').then(
      (m) => (m as unknown as { default?: Cytoscape }).default ?? (m as unknown as Cytoscape),
      (e: unknown) => {
        loading = null;
        throw e;
      },
    );
  }
  return loading;
}
