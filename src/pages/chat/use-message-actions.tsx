// Opening the message actions menu (issue 40), delegated on the message list so bubbles stay cheap:
// - a long press (~500 ms) of a touch: the timer is cancelled by a move beyond 10 px, a lift, or the
//   browser taking the touch over for a scroll (pointercancel), so scrolling is never held; nothing
//   is prevented on touchstart, so text selection stays the browser's; the click the lift makes is
//   swallowed so the press does not also follow a link;
// - a right click (and the contextmenu a phone browser sends after its own long press: one menu);
// - the bubble's actions button (`openFrom`), reachable by Tab, for the keyboard.
import { useCallback, useRef, useState, type MouseEvent, type PointerEvent, type ReactNode } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';
import { copyText } from './clipboard.ts';
import { messageKind } from './message-kinds.ts';
import { MessageMenu, type MenuItem } from './MessageMenu.tsx';

export const LONG_PRESS_MS = 500;
const MOVE_SLOP_PX = 10;

interface Open {
  message: LocalMessage;
  x: number;
  y: number;
  returnTo: HTMLElement | null;
}

export interface MessageActions {
  listHandlers: {
    onPointerDown: (e: PointerEvent<HTMLElement>) => void;
    onPointerMove: (e: PointerEvent<HTMLElement>) => void;
    onPointerUp: () => void;
    onPointerCancel: () => void;
    onClickCapture: (e: MouseEvent<HTMLElement>) => void;
    onContextMenu: (e: MouseEvent<HTMLElement>) => void;
  };
  /** The bubble's actions button: opens the menu under it, focus returns to it. */
  openFrom: (key: string, button: HTMLElement) => void;
  menu: ReactNode;
}

/** A reply needs the quoted message's server id (payload.reply_to); a message never stored on the server has none yet. */
export const canQuote = (m: LocalMessage): boolean => m.serverId !== null && messageKind(m) !== 'system';

export function useMessageActions(messages: readonly LocalMessage[], onReply: ((m: LocalMessage) => void) | undefined): MessageActions {
  const [open, setOpen] = useState<Open | null>(null);
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  const fired = useRef(false);
  const latest = useRef(messages);
  latest.current = messages;

  const messageAt = (target: EventTarget | null): LocalMessage | undefined => {
    const row = target instanceof Element ? target.closest<HTMLElement>('[data-index]') : null;
    const m = row ? latest.current[Number(row.dataset['index'])] : undefined;
    return m && messageKind(m) !== 'system' ? m : undefined;
  };
  const show = useCallback((message: LocalMessage, x: number, y: number, returnTo: HTMLElement | null) => {
    setOpen({ message, x, y, returnTo });
  }, []);
  const cancel = () => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };

  const listHandlers: MessageActions['listHandlers'] = {
    onPointerDown: (e) => {
      fired.current = false;
      if (e.pointerType !== 'touch') return;
      const m = messageAt(e.target);
      if (!m) return;
      const { clientX: x, clientY: y } = e;
      const returnTo = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      cancel();
      press.current = {
        x,
        y,
        timer: setTimeout(() => {
          press.current = null;
          fired.current = true;
          show(m, x, y, returnTo);
        }, LONG_PRESS_MS),
      };
    },
    onPointerMove: (e) => {
      const p = press.current;
      if (p && Math.hypot(e.clientX - p.x, e.clientY - p.y) > MOVE_SLOP_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onClickCapture: (e) => {
      if (!fired.current) return;
      fired.current = false;
      e.preventDefault();
      e.stopPropagation();
    },
    onContextMenu: (e) => {
      const m = messageAt(e.target);
      if (!m) return;
      e.preventDefault();
      cancel();
      if (fired.current) return; // the long press already opened it
      fired.current = e.nativeEvent instanceof PointerEvent && e.nativeEvent.pointerType === 'touch';
      show(m, e.clientX, e.clientY, document.activeElement instanceof HTMLElement ? document.activeElement : null);
    },
  };

  const openFrom = useCallback(
    (key: string, button: HTMLElement) => {
      const m = latest.current.find((x) => x.key === key);
      if (!m) return;
      const r = button.getBoundingClientRect();
      show(m, r.left, r.bottom + 4, button);
    },
    [show],
  );

  let menu: ReactNode = null;
  if (open) {
    const m = open.message;
    const items: MenuItem[] = [
      {
        id: 'copy',
        label: sk.chatActions.copy,
        // The text as written: markdown source, not the rendered HTML.
        run: () => void copyText(m.text).then((ok) => (ok ? toastSuccess(sk.chatActions.copied) : toastError(sk.chatActions.copyFailed))),
      },
    ];
    if (onReply && canQuote(m)) items.push({ id: 'reply', label: sk.chatActions.reply, run: () => onReply(m) });
    menu = <MessageMenu x={open.x} y={open.y} items={items} returnTo={open.returnTo} onClose={() => setOpen(null)} />;
  }
  return { listHandlers, openFrom, menu };
}
