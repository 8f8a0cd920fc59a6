// A list row that slides left to reveal one 80 px action (conversation rows: 'Archivovať' /
// 'Obnoviť'). The gesture rules live in lib/swipe.ts; this only wires pointer events to them.
// Keyboard users reach the action with Tab: focusing it opens the row.
import { useEffect, useReducer, useRef, type PointerEvent, type ReactNode } from 'react';
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
  return (
    <div className="relative overflow-hidden" data-revealed={state.revealed}>
      <button
        type="button"
        onClick={() => {
          dispatch({ type: 'reset' });
          onAction();
        }}
        onFocus={() => dispatch({ type: 'open' })}
        style={{ width: SWIPE.revealWidth }}
        className="focus-ring absolute inset-y-0 right-0 flex items-center justify-center bg-amber-800 px-1 text-center text-xs font-semibold text-white"
      >
        {actionLabel}
      </button>
      <div
        data-testid="swipe-content"
        className={`relative bg-white touch-pan-y ${swiping ? '' : 'transition-transform duration-200 motion-reduce:transition-none'}`}
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
    </div>
  );
}
