// @vitest-environment jsdom
// Lightbox keyboard and gestures: arrows move (wrapping), Escape closes, zoom toggles, a swipe of more
// than 50 px moves, focus goes into the dialog and back to the opener.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Lightbox } from '../../../src/pages/chat/Lightbox.tsx';
import { ImageGallery } from '../../../src/pages/chat/ImageGallery.tsx';

afterEach(cleanup);

const images = [
  { src: '/a.png', alt: 'A' },
  { src: '/b.png', alt: 'B' },
  { src: '/c.png', alt: 'C' },
];
const dialog = () => screen.getByRole('dialog');
const shown = () => screen.getByRole<HTMLImageElement>('img').alt;

describe('Lightbox', () => {
  it('moves with the arrow keys, wrapping around', () => {
    render(<Lightbox images={images} startIndex={0} onClose={() => undefined} />);
    expect(shown()).toBe('A');
    fireEvent.keyDown(dialog(), { key: 'ArrowRight' });
    expect(shown()).toBe('B');
    fireEvent.keyDown(dialog(), { key: 'ArrowLeft' });
    fireEvent.keyDown(dialog(), { key: 'ArrowLeft' });
    expect(shown()).toBe('C');
    expect(screen.getByText('3 / 3')).toBeTruthy();
  });

  it('closes on Escape', () => {
    const onClose = vi.fn();
    render(<Lightbox images={images} startIndex={1} onClose={onClose} />);
    fireEvent.keyDown(dialog(), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('zooms with the button and the keyboard', () => {
    render(<Lightbox images={images} startIndex={0} onClose={() => undefined} />);
    const img = () => screen.getByRole('img');
    expect(img().getAttribute('data-zoomed')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: 'Priblížiť' }));
    expect(img().getAttribute('data-zoomed')).toBe('true');
    fireEvent.keyDown(dialog(), { key: '-' });
    expect(img().getAttribute('data-zoomed')).toBe('false');
    fireEvent.keyDown(dialog(), { key: '+' });
    expect(img().style.transform).toBe('scale(2)');
  });

  it('swipes left to the next image (more than 50 px), ignores short moves', () => {
    render(<Lightbox images={images} startIndex={0} onClose={() => undefined} />);
    const area = screen.getByRole('img').parentElement!;
    fireEvent.pointerDown(area, { clientX: 200 });
    fireEvent.pointerUp(area, { clientX: 170 });
    expect(shown()).toBe('A');
    fireEvent.pointerDown(area, { clientX: 200 });
    fireEvent.pointerUp(area, { clientX: 120 });
    expect(shown()).toBe('B');
  });

  it('focuses the close button and returns focus to the thumbnail', () => {
    render(
      <ImageGallery
        images={[{ id: '1', fileType: 'image', name: 'jar.png', dataUrl: '/full.png', thumbUrl: '/thumb.png', width: 10, height: 10, fileSize: 1 }]}
      />,
    );
    const thumb = screen.getByRole('button', { name: 'jar.png' });
    thumb.focus();
    fireEvent.click(thumb);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Zavrieť' }));
    fireEvent.keyDown(dialog(), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(thumb);
  });

  it('keeps Tab and Shift+Tab inside the dialog, pulls stray focus back, Escape returns focus', () => {
    const onClose = vi.fn();
    const outside = document.createElement('button');
    outside.textContent = 'behind';
    document.body.appendChild(outside);
    outside.focus();
    const view = render(<Lightbox images={images} startIndex={0} onClose={onClose} />);
    const buttons = Array.from(dialog().querySelectorAll('button'));
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['Priblížiť', 'Zavrieť', 'Predchádzajúci obrázok', 'Ďalší obrázok']);
    const close = screen.getByRole('button', { name: 'Zavrieť' });
    expect(document.activeElement).toBe(close);
    const seen: (string | null)[] = [];
    for (let i = 0; i < 5; i++) {
      const active = document.activeElement as HTMLElement;
      const notPrevented = fireEvent.keyDown(active, { key: 'Tab' });
      expect(notPrevented).toBe(false);
      expect(dialog().contains(document.activeElement)).toBe(true);
      seen.push(document.activeElement!.getAttribute('aria-label'));
    }
    expect(seen).toEqual(['Predchádzajúci obrázok', 'Ďalší obrázok', 'Priblížiť', 'Zavrieť', 'Predchádzajúci obrázok']);
    buttons[0]!.focus();
    fireEvent.keyDown(buttons[0]!, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(buttons[3]);
    outside.focus();
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    view.unmount();
    expect(document.activeElement).toBe(outside);
    outside.remove();
  });

  it('a thumbnail that fails falls back to the full image', () => {
    render(<ImageGallery images={[{ id: '1', fileType: 'image', name: null, dataUrl: '/full.png', thumbUrl: '/thumb.png', width: null, height: null, fileSize: null }]} />);
    const img = screen.getByRole('button', { name: 'Obrázok 1' }).querySelector('img')!;
    expect(img.getAttribute('src')).toBe('/thumb.png');
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe('/full.png');
  });
});
