/**
 * The WAI-ARIA modal dialog pattern's focus rules: Tab and Shift+Tab cycle through the
 * dialog's own controls (focus never reaches the page behind it), and when the dialog closes
 * focus goes back to what had it before (the button or key that opened it).
 */
import { useEffect, type RefObject } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function useFocusTrap(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const node = ref.current;
    if (!node) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Tab') return;
      const items = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.getClientRects().length > 0,
      );
      if (!items.length) {
        e.preventDefault();
        return;
      }
      const first = items[0];
      const last = items[items.length - 1];
      const active = document.activeElement;
      if (e.shiftKey && (active === first || !node.contains(active))) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (active === last || !node.contains(active))) {
        e.preventDefault();
        first.focus();
      }
    };
    node.addEventListener('keydown', onKey);
    return () => {
      node.removeEventListener('keydown', onKey);
      // In the next frame, not in the commit that removes the dialog: focus() makes the browser
      // bring style and layout up to date at once, which made closing a dialog over a large
      // page one long task. Unless something took focus meanwhile.
      requestAnimationFrame(() => {
        const active = document.activeElement;
        if (previous?.isConnected && (!active || active === document.body)) previous.focus();
      });
    };
  }, [ref]);
}
