// The composer with attachments (issue 38): the tray of waiting files above the text field, the
// attach buttons in it, files dropped onto or pasted into the chat (`dropTarget`), and the send that
// turns text and files into messages (plan-messages.ts) through the engine's attachment outbox
// (send-attachments.ts). Nothing is lost: files leave the tray only once their message is stored
// (their kept copies, R16.5, in that very transaction), the text only once every message is
// (Composer clears it on `true`); a refusal is said in Slovak.
import { useCallback, type RefObject } from 'react';
import { correlationKey } from '../../../../sync/merge/message.ts';
import { attachmentEntry } from '../../../../sync/commands/send-with-attachments.ts';
import type { ChatData } from '../../../data/use-chat.ts';
import { useSyncEngine } from '../../../data/sync-context.ts';
import { toastError } from '../../../lib/notify.ts';
import { sk } from '../../../text/sk.ts';
import { Composer, type ComposerMode } from '../Composer.tsx';
import { AttachButtons } from './AttachButtons.tsx';
import { AttachmentTray } from './AttachmentTray.tsx';
import { planMessages } from './plan-messages.ts';
import { canSendAttachments, refusalMessage, sendAttachments } from './send-attachments.ts';
import { withHeldPreviews } from './sent-previews.ts';
import { useAttachmentDraft } from './use-attachment-draft.ts';
import { useFileDrop } from './use-file-drop.ts';

interface AttachmentComposerProps {
  conversationId: string;
  value: string;
  onChange: (value: string) => void;
  /** The plain text send (useChat's). */
  onSend: (text: string) => Promise<boolean>;
  /** useChat's: the sending bubble from memory until its stored copy is listed (bench row 14a). */
  showSending: ChatData['showSending'];
  mode: ComposerMode;
  dropTarget: RefObject<HTMLElement | null>;
}

export function AttachmentComposer({ conversationId, value, onChange, onSend, showSending, mode, dropTarget }: AttachmentComposerProps) {
  const engine = useSyncEngine();
  const draft = useAttachmentDraft(conversationId);
  const open = mode === 'ready';
  const dragging = useFileDrop(dropTarget, draft.add, open);

  const { items, removeSent } = draft;
  const send = useCallback(
    async (text: string): Promise<boolean> => {
      if (items.length === 0) return onSend(text);
      if (!engine || !canSendAttachments(engine)) {
        toastError(sk.attachments.unavailable);
        return false;
      }
      const sent: string[] = [];
      try {
        for (const message of planMessages(text, items)) {
          if (message.files.length === 0) {
            if (!(await onSend(message.text))) return false;
            continue;
          }
          // R12.16: each photo's preview is held for its bubble (released if the send is refused). The
          // bubble paints from memory in the frame after Enter, as a text's does (use-chat.ts), with
          // the entries the engine's transaction stores under the same key (ids chosen here): the
          // store (R12.2's estimate, R12.3's transaction with the picked bytes) and the live query's
          // re-read are no longer between Enter and the picture (bench row 14a). A refused store
          // drops it; the tray and the text stay (invariant 1).
          const correlationId = crypto.randomUUID();
          await withHeldPreviews(
            message.files.map((f) => f.file!),
            async (files) => {
              const forget = showSending(correlationKey(correlationId), message.text, { attachments: files.map((f) => attachmentEntry(f, f.id!)) });
              try {
                // R16.5: the tray's kept files leave it in the transaction that stores their message.
                const trayIds = message.files.map((f) => f.id);
                return await sendAttachments(engine, { conversationId, text: message.text, files, correlationId, trayIds });
              } catch (err) {
                forget();
                throw err;
              }
            },
          );
          sent.push(...message.files.map((f) => f.id));
        }
        return true;
      } catch (err) {
        console.warn('send attachments:', err);
        toastError(refusalMessage(err) ?? sk.attachments.notSent);
        return false;
      } finally {
        removeSent(sent);
      }
    },
    [items, removeSent, onSend, showSending, engine, conversationId],
  );

  return (
    <div className="sticky bottom-0 z-10 bg-white">
      {dragging && (
        <p aria-hidden="true" className="pointer-events-none fixed inset-0 z-40 m-2 flex items-center justify-center rounded-xl border-2 border-dashed border-teal-700 bg-white/90 text-lg font-semibold text-teal-800">
          {sk.attachments.dropHint}
        </p>
      )}
      <AttachmentTray items={items} onRemove={draft.remove} onUnreadable={draft.unreadable} onCaption={draft.setCaption} />
      <Composer
        value={value}
        onChange={onChange}
        onSend={send}
        mode={mode}
        attach={<AttachButtons disabled={!open} onFiles={draft.add} />}
        attachments={items.length === 0 ? 'none' : draft.ready ? 'ready' : 'preparing'}
      />
    </div>
  );
}
