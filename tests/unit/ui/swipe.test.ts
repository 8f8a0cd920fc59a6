import { describe, expect, it, vi } from 'vitest';
import { createScrollReset, initialSwipe, SWIPE, swipeReducer, type PointerKind, type SwipeEvent, type SwipeState } from '../../../src/lib/swipe.ts';

const run = (events: SwipeEvent[], from: SwipeState = initialSwipe) => events.reduce(swipeReducer, from);
const gesture = (kind: PointerKind, dx: number, dy = 0, from: SwipeState = initialSwipe) =>
  run(
    [
      { type: 'start', x: 200, y: 100, kind },
      { type: 'move', x: 200 + dx / 2, y: 100 + dy / 2 },
      { type: 'move', x: 200 + dx, y: 100 + dy },
      { type: 'end', x: 200 + dx, y: 100 + dy },
    ],
    from,
  );

describe('swipe-to-archive thresholds (user-area.md section 9)', () => {
  it('uses 80 px reveal, 72 px swipe, 50 px drag and a 100 ms scroll reset', () => {
    expect(SWIPE.revealWidth).toBe(80);
    expect(SWIPE.swipeTrigger).toBe(72);
    expect(SWIPE.dragThreshold).toBe(50);
    expect(SWIPE.scrollResetMs).toBe(100);
  });
  it('reveals after a 72 px touch swipe to the left, not after 71 px', () => {
    expect(gesture('touch', -72)).toMatchObject({ revealed: true, offset: -80, phase: 'idle' });
    expect(gesture('touch', -71)).toMatchObject({ revealed: false, offset: 0 });
  });
  it('reveals after a mouse drag of more than 50 px, not exactly 50 px', () => {
    expect(gesture('mouse', -51).revealed).toBe(true);
    expect(gesture('mouse', -50).revealed).toBe(false);
  });
  it('follows the finger while swiping, clamped to the reveal width', () => {
    const moving = run([
      { type: 'start', x: 200, y: 100, kind: 'touch' },
      { type: 'move', x: 170, y: 102 },
    ]);
    expect(moving).toMatchObject({ phase: 'swiping', offset: -30 });
    expect(swipeReducer(moving, { type: 'move', x: 20, y: 102 }).offset).toBe(-80);
    expect(swipeReducer(moving, { type: 'move', x: 260, y: 102 }).offset).toBe(0);
  });
  it('leaves vertical gestures to scrolling', () => {
    const s = gesture('touch', -90, 120);
    expect(s.revealed).toBe(false);
    expect(s.offset).toBe(0);
    expect(s.suppressClick).toBe(false);
  });
  it('ignores a swipe to the right on a closed row', () => {
    expect(gesture('touch', 120).revealed).toBe(false);
  });
  it('closes an open row with the same distance to the right', () => {
    const open = gesture('touch', -100);
    expect(gesture('touch', 72, 0, open).revealed).toBe(false);
    expect(gesture('touch', 40, 0, open)).toMatchObject({ revealed: true, offset: -80 });
  });
  it('swallows the click after a swipe so the conversation does not open', () => {
    expect(gesture('touch', -100).suppressClick).toBe(true);
    expect(gesture('touch', -20).suppressClick).toBe(true);
  });
  it('resets on a tap of an open row, without opening it', () => {
    const open = gesture('touch', -100);
    const tapped = gesture('touch', 0, 0, open);
    expect(tapped).toMatchObject({ revealed: false, offset: 0, suppressClick: true });
  });
  it('opens without a gesture when the action gets keyboard focus', () => {
    expect(swipeReducer(initialSwipe, { type: 'open' })).toMatchObject({ revealed: true, offset: -80 });
  });
  it('lets a tap on a closed row through', () => {
    expect(gesture('touch', 2, 1).suppressClick).toBe(false);
  });
  it('resets on reset (scroll) and snaps back on cancel', () => {
    const open = gesture('touch', -100);
    expect(swipeReducer(open, { type: 'reset' })).toEqual(initialSwipe);
    expect(swipeReducer(open, { type: 'scrolled' })).toEqual(initialSwipe);
    // A scroll that settles while a drag is under way leaves the drag (and its click suppression) alone.
    const dragging = swipeReducer(swipeReducer(initialSwipe, { type: 'start', x: 300, y: 100, kind: 'mouse' }), { type: 'move', x: 270, y: 100 });
    expect(dragging.phase).toBe('swiping');
    expect(swipeReducer(dragging, { type: 'scrolled' })).toBe(dragging);
    expect(swipeReducer(swipeReducer(dragging, { type: 'scrolled' }), { type: 'end', x: 260, y: 100 }).suppressClick).toBe(true);
    const moving = run([{ type: 'start', x: 0, y: 0, kind: 'touch' }, { type: 'move', x: -40, y: 0 }], open);
    expect(swipeReducer(moving, { type: 'cancel' })).toMatchObject({ phase: 'idle', offset: -80 });
  });
});

describe('createScrollReset', () => {
  it('resets once, 100 ms after the last scroll event', () => {
    vi.useFakeTimers();
    try {
      const onReset = vi.fn();
      const reset = createScrollReset(onReset);
      reset.onScroll();
      vi.advanceTimersByTime(60);
      reset.onScroll();
      vi.advanceTimersByTime(99);
      expect(onReset).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(onReset).toHaveBeenCalledTimes(1);
      reset.onScroll();
      reset.cancel();
      vi.advanceTimersByTime(500);
      expect(onReset).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
