// The composer text of one conversation (issue 40, R16.1): read from the account's database when the
// chat opens, saved there on every change. Text typed before the stored draft was read wins over it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { draftText } from '../../../sync/queries.ts';
import { useSyncEngine } from '../../data/sync-context.ts';
import { forgetComposer, noteComposer, trackSave } from './drafts.ts';

export function useDraft(conversationId: string): [string, (text: string) => void] {
  const engine = useSyncEngine();
  const [text, setText] = useState('');
  const touched = useRef(false);
  const latest = useRef(text);
  latest.current = text;
  useEffect(() => {
    if (!engine) return;
    // Typed while the engine was still starting: saved now that it can be.
    if (touched.current) {
      void trackSave(engine.commands.saveDraft(conversationId, latest.current)).catch((err: unknown) => console.warn('draft:', err));
      return;
    }
    let live = true;
    draftText(engine.db, conversationId).then(
      (stored) => {
        if (!live || touched.current || stored === '') return;
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
      setText(next);
      noteComposer(conversationId, next);
      // A failed save (storage full) keeps the text in the composer; only its survival of a close is lost.
      if (engine) void trackSave(engine.commands.saveDraft(conversationId, next)).catch((err: unknown) => console.warn('draft:', err));
    },
    [engine, conversationId],
  );
  return [text, update];
}
