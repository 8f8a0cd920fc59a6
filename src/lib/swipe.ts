// Swipe-to-archive for conversation rows as a pure reducer (user-area.md sections 2 and 9): a left
// touch swipe of 72 px, or a mouse drag of more than 50 px, reveals the 80 px action ('Archivovať' /
// 'Obnoviť'); the same distance to the right closes it. A gesture that starts vertical is a scroll
// and is left to the browser. Scrolling (debounced 100 ms) or tapping resets the row.
export const SWIPE = {
  revealWidth: 80,
  swipeTrigger: 72,
  dragThreshold: 50,
  scrollResetMs: 100,
  /** Movement below this many px does not decide between swipe and scroll yet. */
  slop: 8,
} as const;

export type PointerKind = 'touch' | 'mouse' | 'pen';

export interface SwipeState {
  phase: 'idle' | 'pending' | 'swiping' | 'scrolling';
  kind: PointerKind;
  startX: number;
  startY: number;
  /** Whether the action was revealed when this gesture began (and, when idle, now). */
  revealed: boolean;
  /** Horizontal translation of the row in px: 0 (closed) to -revealWidth (open). */
  offset: number;
  /** True when the click that follows this gesture must not open the conversation. */
  suppressClick: boolean;
}

export type SwipeEvent =
  | { type: 'start'; x: number; y: number; kind: PointerKind }
  | { type: 'move'; x: number; y: number }
  | { type: 'end'; x: number; y: number }
  | { type: 'cancel' }
  /** Keyboard focus reached the action: show it without a gesture. */
  | { type: 'open' }
  /** The page scrolled (debounced): an open row closes, but a gesture under way is left alone. */
  | { type: 'scrolled' }
  | { type: 'reset' };

export const initialSwipe: SwipeState = {
  phase: 'idle',
  kind: 'touch',
  startX: 0,
  startY: 0,
  revealed: false,
  offset: 0,
  suppressClick: false,
};

const clampOffset = (value: number): number => Math.min(0, Math.max(-SWIPE.revealWidth, value));
const restingOffset = (revealed: boolean): number => (revealed ? -SWIPE.revealWidth : 0);

/** The distance a gesture of this kind must travel to reveal or close the action. */
export function passesThreshold(kind: PointerKind, distance: number): boolean {
  return kind === 'mouse' ? distance > SWIPE.dragThreshold : distance >= SWIPE.swipeTrigger;
}

export function swipeReducer(state: SwipeState, event: SwipeEvent): SwipeState {
  switch (event.type) {
    case 'start':
      return { ...state, phase: 'pending', kind: event.kind, startX: event.x, startY: event.y, suppressClick: false };
    case 'move': {
      if (state.phase === 'idle' || state.phase === 'scrolling') return state;
      const dx = event.x - state.startX;
      const dy = event.y - state.startY;
      if (state.phase === 'pending') {
        if (Math.abs(dx) < SWIPE.slop && Math.abs(dy) < SWIPE.slop) return state;
        if (Math.abs(dy) >= Math.abs(dx)) return { ...state, phase: 'scrolling' };
      }
      return { ...state, phase: 'swiping', offset: clampOffset(restingOffset(state.revealed) + dx) };
    }
    case 'end': {
      if (state.phase === 'swiping') {
        const dx = event.x - state.startX;
        const revealed = state.revealed ? !passesThreshold(state.kind, dx) : passesThreshold(state.kind, -dx);
        return { ...state, phase: 'idle', revealed, offset: restingOffset(revealed), suppressClick: true };
      }
      if (state.phase === 'pending' && state.revealed) {
        // A tap on an open row closes it instead of opening the conversation.
        return { ...state, phase: 'idle', revealed: false, offset: 0, suppressClick: true };
      }
      return { ...state, phase: 'idle', offset: restingOffset(state.revealed) };
    }
    case 'cancel':
      return { ...state, phase: 'idle', offset: restingOffset(state.revealed) };
    case 'open':
      return { ...state, phase: 'idle', revealed: true, offset: -SWIPE.revealWidth };
    case 'scrolled':
      // A drag that began after the scroll must keep its click suppression: resetting it mid-gesture
      // let the release open the conversation.
      return state.phase === 'pending' || state.phase === 'swiping' ? state : { ...initialSwipe };
    case 'reset':
      return { ...initialSwipe };
  }
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** Calls onReset once scrolling has paused for SWIPE.scrollResetMs. */
export function createScrollReset(onReset: () => void, timers: Timers = realTimers): { onScroll(): void; cancel(): void } {
  let handle: unknown;
  const cancel = () => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
  };
  return {
    onScroll() {
      cancel();
      handle = timers.setTimeout(() => {
        handle = undefined;
        onReset();
      }, SWIPE.scrollResetMs);
    },
    cancel,
  };
}
