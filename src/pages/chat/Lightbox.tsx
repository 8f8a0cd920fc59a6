// Full-screen image viewer: arrow keys and swipes move between images, Escape closes, the zoom
// buttons (or a double click / tap) toggle 2× zoom. Focus moves into the dialog, Tab and Shift+Tab
// cycle among its buttons (it never leaks to the page behind), and focus goes back to the opener.
// Escape, arrows and zoom keys are heard on the document while it is open: a tap on the image or a
// mouse swipe left focus on <body>, where the dialog's own key handler never ran (issue 21 item 8);
// such a pointer press also puts focus back on the dialog. The backdrop is opaque, so the chat
// behind (its header under the counter) does not show through.
import { useEffect, useRef, useState, type PointerEvent, type Ref } from 'react';
import { createPortal } from 'react-dom';
import { sk } from '../../text/sk.ts';

export const LIGHTBOX_SWIPE_PX = 50;
const ZOOM = 2;

export interface LightboxImage {
  src: string;
  alt: string;
}

interface LightboxProps {
  images: readonly LightboxImage[];
  startIndex: number;
  onClose: () => void;
}

export function Lightbox({ images, startIndex, onClose }: LightboxProps) {
  const [index, setIndex] = useState(startIndex);
  const [zoomed, setZoomed] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const swipeStart = useRef<number | null>(null);
  const count = images.length;
  const image = images[index];

  const go = (delta: number) => {
    if (count < 2) return;
    setZoomed(false);
    setIndex((i) => (i + delta + count) % count);
  };

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    // Focus that lands outside (a click behind the overlay, a screen-reader jump) is pulled back in.
    const onFocusIn = (e: FocusEvent) => {
      const root = dialogRef.current;
      if (root && e.target instanceof Node && !root.contains(e.target)) closeRef.current?.focus();
    };
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('focusin', onFocusIn);
      opener?.focus();
    };
  }, []);

  const cycleFocus = (backwards: boolean) => {
    const root = dialogRef.current;
    if (!root) return;
    const items = Array.from(root.querySelectorAll<HTMLElement>('button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])'));
    if (items.length === 0) return;
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = backwards ? (at <= 0 ? items.length - 1 : at - 1) : at === -1 || at === items.length - 1 ? 0 : at + 1;
    items[next]?.focus();
  };

  const onKeyDown = (e: globalThis.KeyboardEvent) => {
    if (e.key === 'Tab') cycleFocus(e.shiftKey);
    else if (e.key === 'Escape') onClose();
    else if (e.key === 'ArrowRight') go(1);
    else if (e.key === 'ArrowLeft') go(-1);
    else if (e.key === '+' || e.key === '=') setZoomed(true);
    else if (e.key === '-') setZoomed(false);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  const keyHandler = useRef(onKeyDown);
  keyHandler.current = onKeyDown;
  useEffect(() => {
    const listener = (e: globalThis.KeyboardEvent) => keyHandler.current(e);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const onPointerDown = (e: PointerEvent) => {
    if (!(e.target instanceof Element && e.target.closest('button'))) dialogRef.current?.focus({ preventScroll: true });
    swipeStart.current = zoomed ? null : e.clientX;
  };
  const onPointerUp = (e: PointerEvent) => {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (start === null) return;
    const dx = e.clientX - start;
    if (Math.abs(dx) > LIGHTBOX_SWIPE_PX) go(dx < 0 ? 1 : -1);
  };

  if (!image) return null;
  return createPortal(
    <div ref={dialogRef} tabIndex={-1} role="dialog" aria-modal="true" aria-label={sk.lightbox.label} className="fixed inset-0 z-50 flex flex-col bg-black text-white outline-none dark:[--color-white:#fff]">
      <div className="flex items-center gap-2 p-2 pt-[max(0.5rem,env(safe-area-inset-top))]">
        <span className="flex-1 pl-2 text-sm" aria-live="polite">
          {sk.lightbox.position(index + 1, count)}
        </span>
        <IconButton label={zoomed ? sk.lightbox.zoomOut : sk.lightbox.zoomIn} onClick={() => setZoomed((z) => !z)} path={zoomed ? 'M5 12h14' : 'M12 5v14M5 12h14'} />
        <IconButton ref={closeRef} label={sk.lightbox.close} onClick={onClose} path="M6 6l12 12M18 6L6 18" />
      </div>
      <div className="relative flex min-h-0 flex-1 items-center justify-center overflow-auto touch-pan-y" onPointerDown={onPointerDown} onPointerUp={onPointerUp}>
        <img
          src={image.src}
          alt={image.alt}
          draggable={false}
          data-zoomed={zoomed}
          onDoubleClick={() => setZoomed((z) => !z)}
          style={{ transform: `scale(${zoomed ? ZOOM : 1})` }}
          className="max-h-full max-w-full select-none object-contain transition-transform duration-200 motion-reduce:transition-none"
        />
      </div>
      {count > 1 && (
        <div className="flex justify-between p-2">
          <IconButton label={sk.lightbox.previous} onClick={() => go(-1)} path="M15 18l-6-6 6-6" />
          <IconButton label={sk.lightbox.next} onClick={() => go(1)} path="M9 6l6 6-6 6" />
        </div>
      )}
    </div>,
    document.body,
  );
}

interface IconButtonProps {
  label: string;
  onClick: () => void;
  path: string;
  ref?: Ref<HTMLButtonElement>;
}

function IconButton({ label, onClick, path, ref }: IconButtonProps) {
  return (
    <button
      ref={ref}
      type="button"
      aria-label={label}
      onClick={onClick}
      className="inline-flex h-11 w-11 items-center justify-center rounded-full outline-none hover:bg-white/15 focus-visible:ring-2 focus-visible:ring-white"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d={path} />
      </svg>
    </button>
  );
}
