// One message: own on the right, others on the left, at most 70 % wide (min-w-0 down the flex chain,
// so a wide code block or table cannot stretch the bubble past it: they scroll inside, index.css); sending copies at 70 %
// opacity; failed ones with their error and a retry; text through Markdown (links in a new tab).
// The spec's 70 % opacity is the bubble's surface alone (issue 37): the status line ('Čaká na
// pripojenie') and the text stay opaque, and a queued own bubble is teal-950 at 70 % (a grey teal on
// the white chat), on which white text reads at 5.6:1 (the whole row at 70 % gave 2.26:1, as axe
// blends faded text).
// Memoised on what it shows: the live query answers new objects for unchanged rows, and the virtual
// list re-renders every mounted row whenever a row is measured or the list changes.
import { memo } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { Markdown } from '../../components/Markdown.tsx';
import { sk } from '../../text/sk.ts';
import { attachmentsOf, isOwn, messageKind } from './message-kinds.ts';
import { failureText } from './failure-text.ts';
import { MessageTime } from './MessageTime.tsx';
import { SupportByline } from './SupportByline.tsx';
import { MessageActionsButton } from './MessageActionsButton.tsx';
import { replyToOf } from './list-links.ts';
import { ReplyQuote } from './ReplyQuote.tsx';
import { RichContent } from './RichContent.tsx';
import { SpecialistCardMessage } from './SpecialistCardMessage.tsx';
import { SystemNotice } from './SystemNotice.tsx';
import { AiReplyControls } from './AiReplyControls.tsx';
import { aiReplyState } from './ai-reply-state.ts';
import { DeliveryMark, deliveryOf, PendingLabel } from './DeliveryStatus.tsx';
import { UploadStatus } from './attachments/UploadStatus.tsx';

interface MessageBubbleProps {
  message: LocalMessage;
  onRetry: (key: string) => void;
}

/** The fields a bubble shows or acts on (the card's activation uses serverId). */
const SHOWN = ['key', 'text', 'type', 'direction', 'createdAt', 'state', 'error', 'serverId', 'readAt'] as const satisfies readonly (keyof LocalMessage)[];

/** Whether two copies of a message render the same bubble (payloads compared by content). */
export function sameBubble(a: LocalMessage, b: LocalMessage): boolean {
  if (a === b) return true;
  for (const f of SHOWN) if (a[f] !== b[f]) return false;
  return a.payload === b.payload || JSON.stringify(a.payload) === JSON.stringify(b.payload);
}

export const MessageBubble = memo(Bubble, (prev, next) => prev.onRetry === next.onRetry && sameBubble(prev.message, next.message));

function Bubble({ message: m, onRetry }: MessageBubbleProps) {
  const kind = messageKind(m);
  if (kind === 'system') return <SystemNotice message={m} />;
  const own = isOwn(m);
  const sending = m.state === 'sending';
  const replyTo = replyToOf(m.payload);
  // Issue 40: the actions button sits on the bubble's inner side; the day is the list's separator, so only the time shows.
  const actions = <MessageActionsButton messageKey={m.key} />;
  return (
    <div
      data-testid="message"
      data-state={m.state}
      data-own={own}
      className={`group flex gap-1 px-3 py-1 ${own ? 'justify-end' : 'justify-start'}`}
    >
      {own && actions}
      <div className={`flex min-w-0 max-w-[70%] flex-col ${own ? 'items-end' : 'items-start'}`}>
        {own && <SupportByline message={m} />}
        {kind === 'card' ? (
          <SpecialistCardMessage message={m} />
        ) : (
          <div data-testid="bubble" data-ai={aiReplyState(m) ?? undefined} className={`min-w-0 max-w-full rounded-2xl px-3 py-2 ${aiReplyState(m) === 'streaming' ? 'ai-streaming ' : ''}${own ? `rounded-br-md ${sending ? 'bg-teal-950/70' : 'bg-teal-700'} text-white [&_.markdown_a]:text-white` : 'rounded-bl-md bg-slate-100 text-slate-900'}`}>
            {replyTo && <ReplyQuote id={replyTo} own={own} />}
            {m.text.trim() !== '' && <Markdown text={m.text} />}
            {kind === 'rich' && <RichContent attachments={attachmentsOf(m.payload)} />}
          </div>
        )}
        {!own && <AiReplyControls message={m} />}
        <p className="mt-0.5 inline-flex items-center gap-1 px-1 text-[11px] text-slate-500">
          {m.state === 'sending' ? <PendingLabel /> : <MessageTime message={m} />}
          {own && m.state === 'sent' && <DeliveryMark delivery={deliveryOf(m) === 'read' ? 'read' : 'sent'} />}
        </p>
        {/* Issue 38: an own message's files while it is not sent (progress, waiting, retry, cancel). */}
        {own && kind === 'rich' && m.state !== 'sent' && <UploadStatus messageKey={m.key} />}
        {m.state === 'failed' && (
          <p role="alert" className="flex items-center gap-2 px-1 text-xs text-red-700">
            <span>{failureText(m.error)}</span>
            <button type="button" className="link text-red-800" onClick={() => onRetry(m.key)}>
              {sk.chat.retrySend}
            </button>
          </p>
        )}
      </div>
      {!own && actions}
    </div>
  );
}
