// The composer's attach button (issue 38): opens the system picker for several files of the allowed
// types (gallery and files; on phones the picker also offers the camera), and on a touch device a
// camera button that opens the camera directly (`capture`). The inputs are hidden; the buttons are
// what a keyboard and a screen reader reach.
import { useRef, useSyncExternalStore, type ChangeEvent } from 'react';
import { sk } from '../../../text/sk.ts';
import { ACCEPT } from './limits.ts';

const COARSE = '(pointer: coarse)';

function subscribeCoarse(fn: () => void): () => void {
  const query = window.matchMedia?.(COARSE);
  query?.addEventListener('change', fn);
  return () => query?.removeEventListener('change', fn);
}
const isCoarse = () => window.matchMedia?.(COARSE).matches ?? false;

interface AttachButtonsProps {
  disabled: boolean;
  onFiles: (files: File[]) => void;
}

const BUTTON = 'focus-ring inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100 disabled:cursor-not-allowed disabled:text-slate-400';

export function AttachButtons({ disabled, onFiles }: AttachButtonsProps) {
  const files = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const phone = useSyncExternalStore(subscribeCoarse, isCoarse, () => false);
  const picked = (e: ChangeEvent<HTMLInputElement>) => {
    const list = Array.from(e.currentTarget.files ?? []);
    e.currentTarget.value = ''; // the same file can be picked again after a removal
    if (list.length > 0) onFiles(list);
  };
  const title = `${sk.chat.attach}. ${sk.attachments.limit}`;
  return (
    <>
      <button type="button" disabled={disabled} aria-label={sk.chat.attach} title={title} onClick={() => files.current?.click()} className={BUTTON}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <path d="M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l8.6-8.6a3.5 3.5 0 0 1 5 5L10.3 18a2 2 0 0 1-2.8-2.8l7.9-7.9" />
        </svg>
      </button>
      <input ref={files} type="file" multiple accept={ACCEPT} hidden data-testid="attach-input" onChange={picked} />
      {phone && (
        <>
          <button type="button" disabled={disabled} aria-label={sk.attachments.camera} title={sk.attachments.camera} onClick={() => camera.current?.click()} className={BUTTON}>
            <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
              <path d="M4 8h3l2-3h6l2 3h3v11H4z" />
              <circle cx="12" cy="13" r="3.5" />
            </svg>
          </button>
          <input ref={camera} type="file" accept="image/*" capture="environment" hidden data-testid="camera-input" onChange={picked} />
        </>
      )}
    </>
  );
}
