/**
 * The top bar's actions folded into one menu button when the window is too narrow for them
 * (TopBar.tsx): a WAI-ARIA menu button (use-menu-button.ts). Enter, Space or ArrowDown opens it on the first item
 * (ArrowUp on the last); ArrowUp/ArrowDown move (wrapping), Home/End jump, Escape closes it and
 * returns to the button, Tab or a click elsewhere closes it.
 */
import type { ReactNode, RefObject } from 'react';
import { useMenuButton } from '../use-menu-button';

export interface MenuAction {
  key: string;
  label: ReactNode;
  onSelect: () => void;
  testId?: string;
  title?: string;
  /** Starts a group under this heading (Recent folders). */
  group?: string;
}

const MenuIcon = () => (
  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
    <path d="M2 3.5h12v1.5H2zM2 7.25h12v1.5H2zM2 11h12v1.5H2z" />
  </svg>
);

/** `buttonRef`: the menu button (focused again after a dialog an item opened closes). */
export function TopBarMenu({
  actions,
  buttonRef,
}: {
  actions: MenuAction[];
  buttonRef?: RefObject<HTMLButtonElement | null>;
}) {
  const { open, close, rootRef, buttonRef: button, buttonProps, listProps } = useMenuButton(buttonRef);
  return (
    <div className="topbar-menu" ref={rootRef}>
      <button type="button" data-testid="topbar-menu" ref={button} {...buttonProps}>
        <MenuIcon /> Menu
      </button>
      {open && (
        <ul aria-label="Menu" className="topbar-menu-list" {...listProps}>
          {actions.map((a) => (
            <li key={a.key} role="none" className={a.group ? 'menu-group-start' : undefined}>
              {a.group && (
                <span className="menu-group-label" aria-hidden="true">
                  {a.group}
                </span>
              )}
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                title={a.title}
                data-testid={a.testId}
                onClick={() => {
                  close(true);
                  a.onSelect();
                }}
              >
                {a.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
