// The sticky composer (user-area.md section 5): a textarea growing up to 128 px, Enter sends and
// Shift+Enter adds a newline, an attach slot (issue 38: attachments/AttachButtons.tsx; without it the
// button shows disabled), a send button. Blank text is ignored unless attachments are ready to go,
// and so is a send while the composer is disabled, files are being prepared, or another send is in flight; one
// asked for while the conversation is still being read waits for it ('loading'). The text is
// cleared only once `onSend` says the message is stored (invariant 1); on failure it stays.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { toastError } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';

export const COMPOSER_MAX_HEIGHT_PX = 128;

/** IndexedDB refused the write for lack of space (Dexie passes the DOMException's name, or wraps it). */
function isQuotaError(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth++) {
    const { name, inner, cause } = e as { name?: unknown; inner?: unknown; cause?: unknown };
    if (name === 'QuotaExceededError') return true;
    e = inner ?? cause;
  }
  return false;
}

/**
 * ready: type and send; waiting: the AI is answering; completed: the conversation is closed;
 * missing: the conversation is not (yet) in the local store, so a message would have nowhere to go;
 * loading: the conversation is still being read from the device's store (a few hundred ms after a
 * reload on a busy phone, while the stored draft may already show). Typing goes on then (a keystroke
 * into a disabled textarea is lost), and a send asked for then goes once the conversation is known
 * to take it ('ready', also after a 'waiting' for the AI's answer to an earlier question); should it
 * turn out closed or missing, the text stays in the composer.
 */
export type ComposerMode = 'ready' | 'loading' | 'waiting' | 'completed' | 'missing';

interface ComposerProps {
  value: string;
  onChange: (value: string) => void;
  /** Resolves true when the message was stored (the composer then clears). */
  onSend: (text: string) => Promise<boolean>;
  mode: ComposerMode;
  /** Issue 38: the attach buttons, and whether attachments wait beside the text ('ready' sends with blank text). */
  attach?: ReactNode;
  attachments?: 'none' | 'ready' | 'preparing';
}

const PLACEHOLDER: Record<ComposerMode, string> = {
  ready: sk.chat.placeholder,
  loading: sk.chat.placeholder,
  waiting: sk.chat.waiting,
  completed: sk.chat.completed,
  missing: sk.chat.placeholder,
};

export function Composer({ value, onChange, onSend, mode, attach, attachments = 'none' }: ComposerProps) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const inFlight = useRef(false);
  const latest = useRef(value);
  latest.current = value;
  const [sending, setSending] = useState(false);
  const typeable = mode === 'ready' || mode === 'loading';
  const contentIn = (text: string) => attachments === 'ready' || (attachments === 'none' && text.trim() !== '');
  const hasContent = contentIn(value);
  const canSend = typeable && !sending && hasContent;
  // A send asked for while 'loading': the text it was asked with, sent when the mode turns 'ready'.
  // Shown (the button busy, a status for screen readers) so nobody wonders why the text stays.
  const [pending, setPending] = useState<string | null>(null);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = 'auto';
    const height = Math.min(el.scrollHeight, COMPOSER_MAX_HEIGHT_PX);
    el.style.height = `${height}px`;
    el.style.overflowY = el.scrollHeight > COMPOSER_MAX_HEIGHT_PX ? 'auto' : 'hidden';
  }, [value]);

  const send = async (text = value) => {
    if (!typeable || inFlight.current || !contentIn(text)) return;
    if (mode === 'loading') {
      setPending(text);
      return;
    }
    inFlight.current = true;
    setSending(true);
    try {
      // Only what was sent is cleared: text typed while the send was stored stays.
      if ((await onSend(text)) && latest.current === text) onChange('');
    } catch (err) {
      console.warn('send:', err);
      // The text stays in the field; a full device is the one failure the member can act on.
      if (isQuotaError(err)) toastError(sk.chat.storageFull);
    } finally {
      inFlight.current = false;
      setSending(false);
      ref.current?.focus();
    }
  };

  useEffect(() => {
    // 'waiting' (the chat opened while the AI still answers an earlier question, R13) keeps it too:
    // it goes once 'ready'. Closed or missing: nothing is sent, the text stays in the field.
    if (mode === 'loading' || mode === 'waiting' || pending === null) return;
    setPending(null);
    if (mode === 'ready') void send(pending);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the mode's change sends; `send` is this render's ('ready')
  }, [mode]);
  const pendingNote = pending === null ? null : mode === 'waiting' ? sk.chat.sendAfterAnswer : sk.chat.sendWhenOpen;

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    void send();
  };

  return (
    <form
      data-mode={mode}
      className="sticky bottom-0 flex items-end gap-2 border-t border-slate-200 bg-white px-2 py-2 pb-[calc(0.5rem+env(safe-area-inset-bottom))]"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {attach ?? (
      <button
        type="button"
        disabled
        aria-label={sk.chat.attach}
        title={sk.chat.attach}
        className="focus-ring inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-400 disabled:cursor-not-allowed"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <path d="M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l8.6-8.6a3.5 3.5 0 0 1 5 5L10.3 18a2 2 0 0 1-2.8-2.8l7.9-7.9" />
        </svg>
      </button>
      )}
      <textarea
        ref={ref}
        rows={1}
        value={value}
        disabled={!typeable}
        placeholder={PLACEHOLDER[mode]}
        aria-label={sk.chat.messageLabel}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={onKeyDown}
        style={{ maxHeight: COMPOSER_MAX_HEIGHT_PX }}
        className="field min-h-11 flex-1 resize-none py-2.5 leading-6 disabled:cursor-not-allowed disabled:bg-slate-100"
      />
      <button
        type="submit"
        disabled={!canSend}
        aria-label={sk.chat.send}
        aria-busy={pendingNote !== null || undefined}
        title={pendingNote ?? undefined}
        className={`focus-ring inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-teal-700 text-white hover:bg-teal-800 disabled:cursor-not-allowed disabled:bg-slate-300${pendingNote !== null ? ' animate-pulse motion-reduce:animate-none' : ''}`}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M4 12l16-8-6 16-2.5-6.5L4 12z" />
        </svg>
      </button>
      {pendingNote !== null && (
        // Shown, not only read out: the text stays in the field meanwhile, and without a word the
        // member would think the Enter was lost. A caption above the bar, not in the row (the field
        // keeps its width).
        <p role="status" className="pointer-events-none absolute inset-x-0 bottom-full mb-1 flex justify-center px-2">
          <span className="rounded-full border border-slate-200 bg-white px-3 py-1 text-xs text-slate-700 shadow-sm">{pendingNote}</span>
        </p>
      )}
    </form>
  );
}
