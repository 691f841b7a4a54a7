/**
 * Cytoscape, loaded on first use: the drawn graphs are the only place that needs it, so the
 * main bundle does not carry it (Vite splits a dynamic import into its own chunk). A failed
 * load (offline, a stale deploy) is forgotten, so the next try loads again.
 */
import type cytoscape from 'cytoscape';

export type Cytoscape = typeof cytoscape;

let loading: Promise<Cytoscape> | null = null;

/**
 * cytoscape adds a `<style>` element for its container's `position: relative` unless an element
 * with this id exists; the app's CSP (style-src 'self') refuses inline styles, so an empty
 * placeholder stands in and graph.css carries the rule.
 */
const CYTOSCAPE_STYLESHEET_ID = '__________cytoscape_stylesheet';

function claimStylesheet(): void {
  if (document.getElementById(CYTOSCAPE_STYLESHEET_ID)) return;
  const placeholder = document.createElement('template');
  placeholder.id = CYTOSCAPE_STYLESHEET_ID;
  document.head.append(placeholder);
}

export function loadCytoscape(): Promise<Cytoscape> {
  claimStylesheet();
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
