// The composer text of one conversation (issue 40, R16.1): read from the account's database when the
// chat opens, saved there on every change. Text typed before the stored draft was read wins over it.
// R16.4: each change is first written synchronously to the write-ahead copy in localStorage (by the
// engine's saveDraft; before the engine has loaded, here), so a tab killed a few ms after a keystroke
// still has it; the chat opens with the newer of that copy and the stored draft (engine's loadDraft).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyValueStore } from '../../../sync/background/restore.ts';
import { writeDraftAhead } from '../../../sync/commands/draft-ahead.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { ONLINE_ONLY } from '../../data/online-only/flag.ts';
import { useSyncEngine } from '../../data/sync-context.ts';
import { forgetComposer, noteComposer, trackSave } from './drafts.ts';

export function useDraft(conversationId: string): [string, (text: string) => void] {
  const engine = useSyncEngine();
  const userId = useAuth().user?.id ?? null;
  const [text, setText] = useState('');
  const touched = useRef(false);
  // The text of the last change, set by the change itself (not by the render after it): the engine's
  // arrival below may run between a keystroke and its render.
  const latest = useRef(text);
  // A change made before the engine had loaded (only its write-ahead copy holds it).
  const unsaved = useRef(false);
  useEffect(() => {
    if (!engine) return;
    // Typed while the engine was still starting: saved now that it can be. Only then: a keystroke
    // handled by the new engine before this effect ran (React runs it after the paint) has saved
    // itself, and saving `latest` again here would write what the render before that keystroke held
    // ('' after a reload), newer than the keystroke's save, so the typed text would lose (seen with
    // a typeable composer under an 8x CPU throttle).
    if (touched.current) {
      if (unsaved.current) {
        unsaved.current = false;
        void trackSave(engine.commands.saveDraft(conversationId, latest.current)).catch((err: unknown) => console.warn('draft:', err));
      }
      return;
    }
    let live = true;
    engine.commands.loadDraft(conversationId).then(
      (stored) => {
        if (!live || touched.current || stored === '') return;
        latest.current = stored;
        setText(stored);
        noteComposer(conversationId, stored);
      },
      (err: unknown) => console.warn('draft:', err),
    );
    return () => {
      live = false;
    };
  }, [engine, conversationId]);
  useEffect(() => () => forgetComposer(conversationId), [conversationId]);
  const update = useCallback(
    (next: string) => {
      touched.current = true;
      latest.current = next;
      setText(next);
      noteComposer(conversationId, next);
      // A failed save (storage full) keeps the text in the composer; only its survival of a close is lost.
      if (engine) void trackSave(engine.commands.saveDraft(conversationId, next)).catch((err: unknown) => console.warn('draft:', err));
      // Before the engine (its code still loading): the write-ahead copy alone; the engine's start
      // folds it in. The online-only baseline keeps nothing on the device (no engine ever comes).
      else if (userId && !ONLINE_ONLY) {
        unsaved.current = true;
        const store = localStore();
        if (store) writeDraftAhead(store, userId, conversationId, next, Date.now());
      }
    },
    [engine, conversationId, userId],
  );
  return [text, update];
}

/** The engine's default for its `markers` store (the same localStorage); null when storage is denied. */
function localStore(): KeyValueStore | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
