// A list row that slides left to reveal one 80 px action (conversation rows: 'Archivovať' /
// 'Obnoviť'). The gesture rules live in lib/swipe.ts; this only wires pointer events to them.
// Keyboard (issue 21 item 9): one Tab stop per row — the row itself; the action is out of the Tab
// order until the row is open. ArrowLeft (or Delete) on the row opens it and focuses the action,
// ArrowRight or Escape closes it, and a row closes as soon as focus leaves it, so rows tabbed past
// never stay slid open.
import { useEffect, useReducer, useRef, type FocusEvent, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { createScrollReset, initialSwipe, SWIPE, swipeReducer, type PointerKind } from '../lib/swipe.ts';

interface SwipeableRowProps {
  actionLabel: string;
  onAction: () => void;
  children: ReactNode;
}

const kindOf = (e: PointerEvent): PointerKind => (e.pointerType === 'mouse' ? 'mouse' : e.pointerType === 'pen' ? 'pen' : 'touch');

export function SwipeableRow({ actionLabel, onAction, children }: SwipeableRowProps) {
  const [state, dispatch] = useReducer(swipeReducer, initialSwipe);
  const suppressClick = useRef(false);
  suppressClick.current = state.suppressClick;

  useEffect(() => {
    const scroll = createScrollReset(() => dispatch({ type: 'scrolled' }));
    const onScroll = () => scroll.onScroll();
    window.addEventListener('scroll', onScroll, { capture: true, passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll, { capture: true });
      scroll.cancel();
    };
  }, []);

  const swiping = state.phase === 'swiping';
  const actionRef = useRef<HTMLButtonElement>(null);
  const rowRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.key === 'ArrowLeft' || e.key === 'Delete') && e.target !== actionRef.current) {
      dispatch({ type: 'open' });
      actionRef.current?.focus();
    } else if ((e.key === 'ArrowRight' || e.key === 'Escape') && state.revealed) {
      dispatch({ type: 'reset' });
      rowRef.current?.querySelector<HTMLElement>('[data-testid="swipe-content"] a, [data-testid="swipe-content"] [tabindex="0"]')?.focus();
    } else return;
    e.preventDefault();
  };
  const onBlur = (e: FocusEvent) => {
    if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) dispatch({ type: 'reset' });
  };
  return (
    <div ref={rowRef} className="relative overflow-hidden" data-revealed={state.revealed} onKeyDown={onKeyDown} onBlur={onBlur}>
      <div
        data-testid="swipe-content"
        className={`relative z-10 bg-white touch-pan-y ${swiping ? '' : 'transition-transform duration-200 motion-reduce:transition-none'}`}
        style={{ transform: `translateX(${state.offset}px)` }}
        onPointerDown={(e) => dispatch({ type: 'start', x: e.clientX, y: e.clientY, kind: kindOf(e) })}
        onPointerMove={(e) => dispatch({ type: 'move', x: e.clientX, y: e.clientY })}
        onPointerUp={(e) => dispatch({ type: 'end', x: e.clientX, y: e.clientY })}
        onPointerCancel={() => dispatch({ type: 'cancel' })}
        onClickCapture={(e) => {
          if (!suppressClick.current) return;
          e.preventDefault();
          e.stopPropagation();
        }}
      >
        {children}
      </div>
      <button
        ref={actionRef}
        type="button"
        tabIndex={state.revealed ? 0 : -1}
        onClick={() => {
          dispatch({ type: 'reset' });
          onAction();
        }}
        onFocus={() => dispatch({ type: 'open' })}
        style={{ width: SWIPE.revealWidth }}
        className="focus-ring absolute inset-y-0 right-0 z-0 flex items-center justify-center bg-amber-800 px-1 text-center text-xs font-semibold text-white"
      >
        {actionLabel}
      </button>
    </div>
  );
}
