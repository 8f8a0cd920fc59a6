// The actions menu of one message (issue 40): opened by a long press (phone), a right click or the
// bubble's actions button (desktop, keyboard). WAI-ARIA menu pattern: focus moves to the first item,
// arrow keys / Home / End move between items, Escape or Tab closes, and focus returns to where it was.
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { sk } from '../../text/sk.ts';

export interface MenuItem {
  id: string;
  label: string;
  run: () => void;
}

interface MessageMenuProps {
  /** Where it opened (viewport px): the pointer, or the actions button's corner. */
  x: number;
  y: number;
  items: readonly MenuItem[];
  /** Focus goes back here on close. */
  returnTo: HTMLElement | null;
  onClose: () => void;
}

const EDGE_PX = 8;

export function MessageMenu({ x, y, items, returnTo, onClose }: MessageMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ left: x, top: y });
  useLayoutEffect(() => {
    const el = menu.current;
    if (!el) return;
    // Kept inside the viewport: a press near the right or bottom edge opens it to the left / above.
    const { width, height } = el.getBoundingClientRect();
    const left = Math.max(EDGE_PX, Math.min(x, window.innerWidth - width - EDGE_PX));
    const top = y + height + EDGE_PX > window.innerHeight ? Math.max(EDGE_PX, y - height) : y;
    setPos({ left, top });
    el.querySelector<HTMLElement>('[role="menuitem"]')?.focus({ preventScroll: true });
  }, [x, y]);

  const close = () => {
    onClose();
    returnTo?.focus({ preventScroll: true });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const at = all.indexOf(document.activeElement as HTMLElement);
    const to = (i: number) => all[(i + all.length) % all.length]?.focus();
    if (e.key === 'ArrowDown') to(at + 1);
    else if (e.key === 'ArrowUp') to(at - 1);
    else if (e.key === 'Home') to(0);
    else if (e.key === 'End') to(all.length - 1);
    else if (e.key === 'Escape' || e.key === 'Tab') close();
    else return;
    e.preventDefault();
  };
  return (
    <>
      {/* A click or tap anywhere else closes the menu without acting there. The mouse events a touch
          sends when the long press that opened the menu lifts land here too: they must not take focus. */}
      <div className="fixed inset-0 z-40" onPointerDown={(e) => (e.preventDefault(), close())} onMouseDown={(e) => e.preventDefault()} onContextMenu={(e) => e.preventDefault()} />
      <div
        ref={menu}
        role="menu"
        aria-label={sk.chatActions.menuLabel}
        data-testid="message-menu"
        onKeyDown={onKeyDown}
        style={{ left: pos.left, top: pos.top }}
        className="fixed z-50 min-w-44 rounded-xl bg-white py-1 shadow-lg ring-1 ring-slate-200"
      >
        {items.map((item) => (
          <button
            key={item.id}
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              close();
              item.run();
            }}
            className="block w-full px-4 py-2.5 text-left text-sm text-slate-900 outline-none hover:bg-slate-100 focus-visible:bg-slate-100 focus:bg-slate-100"
          >
            {item.label}
          </button>
        ))}
      </div>
    </>
  );
}
