// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SwipeableRow } from '../../../src/components/SwipeableRow.tsx';

afterEach(cleanup);

function setup() {
  const onAction = vi.fn();
  const onOpen = vi.fn();
  render(
    <SwipeableRow actionLabel="Archivovať" onAction={onAction}>
      <a
        href="#chat"
        onClick={(e) => {
          e.preventDefault();
          onOpen();
        }}
      >
        Konverzácia
      </a>
    </SwipeableRow>,
  );
  const content = screen.getByTestId('swipe-content');
  const swipe = (dx: number, pointerType = 'touch') => {
    fireEvent.pointerDown(content, { clientX: 200, clientY: 50, pointerType });
    fireEvent.pointerMove(content, { clientX: 200 + dx / 2, clientY: 50, pointerType });
    fireEvent.pointerMove(content, { clientX: 200 + dx, clientY: 50, pointerType });
    fireEvent.pointerUp(content, { clientX: 200 + dx, clientY: 50, pointerType });
  };
  const tap = () => {
    fireEvent.pointerDown(content, { clientX: 100, clientY: 50, pointerType: 'touch' });
    fireEvent.pointerUp(content, { clientX: 100, clientY: 50, pointerType: 'touch' });
    fireEvent.click(screen.getByText('Konverzácia'));
  };
  return { onAction, onOpen, content, swipe, tap };
}

describe('SwipeableRow', () => {
  it('reveals the 80 px action after a 72 px swipe and runs it', () => {
    const { onAction, content, swipe } = setup();
    swipe(-72);
    expect(content.style.transform).toBe('translateX(-80px)');
    fireEvent.click(screen.getByRole('button', { name: 'Archivovať' }));
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(content.style.transform).toBe('translateX(0px)');
  });
  it('stays closed after a short swipe, and taps open the conversation', () => {
    const { onOpen, content, swipe, tap } = setup();
    swipe(-40);
    expect(content.style.transform).toBe('translateX(0px)');
    tap();
    expect(onOpen).toHaveBeenCalledTimes(1);
  });
  it('closes on a tap without opening the conversation', () => {
    const { onOpen, content, swipe, tap } = setup();
    swipe(-100);
    tap();
    expect(content.style.transform).toBe('translateX(0px)');
    expect(onOpen).not.toHaveBeenCalled();
  });
  it('resets 100 ms after scrolling stops', () => {
    vi.useFakeTimers();
    try {
      const { content, swipe } = setup();
      swipe(-60, 'mouse');
      expect(content.style.transform).toBe('translateX(-80px)');
      fireEvent.scroll(window);
      act(() => {
        vi.advanceTimersByTime(100);
      });
      expect(content.style.transform).toBe('translateX(0px)');
    } finally {
      vi.useRealTimers();
    }
  });
  it('opens when the action gets keyboard focus', () => {
    const { content } = setup();
    act(() => screen.getByRole('button', { name: 'Archivovať' }).focus());
    expect(content.style.transform).toBe('translateX(-80px)');
  });
});
