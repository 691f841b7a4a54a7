/**
 * The page's first Tab stop, shown only while focused: "Skip to the code" puts the focus in the
 * file viewer (its caret), or in the search box when no file is open. From a page load that is
 * Tab, Enter. The viewer's keys then work at once (arrows, F12, Ctrl+G, ...).
 */
import './nav.css';

/** Focus the open file's code, or the search box; true when something took the focus. */
export function focusCode(): boolean {
  const target =
    document.querySelector<HTMLElement>('[data-testid="viewer-lines"]') ??
    document.querySelector<HTMLElement>('input[type="search"], [role="searchbox"]');
  target?.focus();
  return !!target;
}

export function SkipLink({ hasFile }: { hasFile: boolean }) {
  return (
    <a
      className="skip-link"
      href="#code"
      onClick={(e) => {
        e.preventDefault();
        focusCode();
      }}
    >
      {hasFile ? 'Skip to the code' : 'Skip to search'}
    </a>
  );
}
