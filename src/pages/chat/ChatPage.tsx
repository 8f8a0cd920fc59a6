// /app/chats/{id}: the conversation from the local store. Messages show from IndexedDB at once; the
// network only shows as the notice box. The composer's text is per conversation (remounted per id)
// and kept as a draft, so switching conversation starts with that conversation's own draft.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { useParams, useSearchParams } from 'react-router-dom';
import { ONLINE_ONLY } from '../../data/online-only/flag.ts';
import { useSyncEngine } from '../../data/sync-context.ts';
import { useChat } from '../../data/use-chat.ts';
import { useSyncStatus } from '../../data/use-sync-status.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { sk } from '../../text/sk.ts';
import { ChatHeader } from './ChatHeader.tsx';
import { ChatNotice } from './ChatNotice.tsx';
import { composerMode } from './composer-mode.ts';
import { AttachmentComposer } from './attachments/AttachmentComposer.tsx';
import { MessageList } from './MessageList.tsx';
import { OlderHistoryNotice } from './OlderHistoryNotice.tsx';
import { NewMessageAnnouncer } from './NewMessageAnnouncer.tsx';
import { WaitingNote } from './OwnerControls.tsx';
import { isOwn } from './message-kinds.ts';
import { chatPresence } from './presence.ts';
import { PushPromptCard } from './PushPromptCard.tsx';
import { ReplyPreview } from './ReplyPreview.tsx';
import { SupportComposeNote } from './SupportComposeNote.tsx';
import { TypingIndicator } from './TypingIndicator.tsx';
import { useDraft } from './use-draft.ts';
import { useFirstUnread } from './use-first-unread.ts';
import { useMissingVerdict } from './use-missing-verdict.ts';
import { useMarkRead } from './use-mark-read.ts';
import { useAiTyping } from './use-typing.ts';

// Issue 40: the search inside the chat loads when first opened.
const ChatSearch = lazy(() => import('../../search/ChatSearch.tsx'));

export function ChatPage() {
  const { id } = useParams();
  useDocumentTitle(sk.titles.chat);
  if (!id) {
    return (
      <section className="flex flex-1 items-center justify-center p-4">
        <p className="text-slate-600">{sk.chat.noConversation}</p>
      </section>
    );
  }
  return <ChatScreen key={id} conversationId={id} />;
}

function ChatScreen({ conversationId }: { conversationId: string }) {
  const engine = useSyncEngine();
  const status = useSyncStatus();
  const { conversation, conversationRead, messages: list, send, showSending } = useChat(conversationId);
  // R15.8: a search hit opens the chat at that message (?m=<key>).
  const foundKey = useSearchParams()[0].get('m');
  const [draft, setDraft] = useDraft(conversationId);
  // R14.3: no AI answer is coming once a human was asked for or answers.
  const aiTyping = useAiTyping(conversationId, conversation?.specialist?.isAi === true && (conversation.ownerState ?? 'ai') === 'ai');
  useMarkRead(engine, conversationId, list);

  const offline = status.connection === 'offline';
  // Typing dots and 'Čaká sa na odpoveď…' only while an answer can come: the user's latest message
  // reached the server ('sent'), and the device is online. A failed or still-queued message gets no
  // answer, so the composer stays open (issue 21 item 4).
  const lastOwn = list ? lastOwnMessage(list) : undefined;
  const answering = aiTyping && !offline && lastOwn?.state === 'sent';
  // The first unread message when the chat opened, fixed then: reading it marks it read at once (R2.9).
  const firstUnread = useFirstUnread(conversationId, list);
  // The list is first shown once where it opens is decided (undefined: the cursor's one read is
  // still out): a list shown at the newest and moved to the first unread a moment later would jump.
  const loading = list === undefined || (list.length === 0 && conversation === undefined);
  const deciding = !loading && list.length > 0 && firstUnread === undefined;
  // A conversation just started ('Chatovať', a card) may not be local yet: pull at once; what the
  // screen says meanwhile comes from useMissingVerdict.
  const missing = loading && list !== undefined;
  const verdict = useMissingVerdict(conversationId, missing, status);
  // The conversation can be read from the database opened early, before the engine that sends has
  // loaded (SyncProvider): a send then would be refused (useChat's send needs the engine), so the
  // composer stays 'loading' until it is there. The online-only baseline sends without one.
  const canSend = ONLINE_ONLY || engine !== null;
  const mode = composerMode({ conversation, conversationRead, verdict, canSend, answering });
  // Offline the header does not claim 'online' (only 'uzamknuté', which holds regardless).
  const shown = conversation ? chatPresence(conversation, list ?? [], Date.now()) : null;
  const presence = offline && shown !== 'locked' ? null : shown;

  // Issue 40: the message being replied to; sent as payload.reply_to (its server id), then dropped.
  const [replyTo, setReplyTo] = useState<LocalMessage | null>(null);
  const reply = useCallback((m: LocalMessage) => {
    setReplyTo(m);
    section.current?.querySelector<HTMLElement>('textarea:enabled')?.focus();
  }, []);
  const sendReply = useCallback(
    async (text: string) => {
      const ok = await send(text, replyTo?.serverId ? { reply_to: replyTo.serverId } : null);
      if (ok) setReplyTo(null);
      return ok;
    },
    [send, replyTo],
  );

  const retry = useCallback(
    (key: string) => {
      engine?.commands.retryMessage(key).catch((err: unknown) => console.warn('retry:', err));
    },
    [engine],
  );

  // Once the chat is shown, focus goes to the composer, where a member opening a chat means to type
  // (issue 37); into a closed conversation nothing can be typed, so then to the message history.
  const section = useRef<HTMLElement>(null);
  const focused = useRef(false);
  useEffect(() => {
    if (loading || deciding || mode === 'missing' || focused.current) return;
    focused.current = true;
    const target = section.current?.querySelector<HTMLElement>('textarea:enabled') ?? section.current?.querySelector<HTMLElement>('[data-testid="message-scroller"]');
    target?.focus({ preventScroll: true });
  }, [loading, deciding, mode]);
  useEffect(() => {
    if (missing) engine?.syncNow();
  }, [missing, engine]);
  const [searching, setSearching] = useState(false);
  return (
    <section ref={section} className="flex min-h-0 flex-1 flex-col bg-white" aria-label={sk.titles.chat}>
      <ChatHeader conversation={conversation} presence={presence} absentTitle={verdict === 'loading' ? sk.app.loading : sk.chat.notFoundTitle} onSearch={conversation ? () => setSearching(true) : undefined} />
      {searching && (
        <Suspense fallback={null}>
          <ChatSearch conversationId={conversationId} onClose={() => setSearching(false)} />
        </Suspense>
      )}
      <ChatNotice status={status} onRetry={() => engine?.syncNow()} />
      <WaitingNote conversation={conversation} />
      <OlderHistoryNotice conversationId={conversationId} status={status} />
      {deciding ? (
        <div className="flex-1" aria-busy="true" />
      ) : loading ? (
        <p role="status" className="flex-1 p-6 text-center text-slate-600">
          {verdict === 'not-found' ? sk.chat.notFound : verdict === 'not-downloaded' ? sk.chat.notDownloaded : sk.chat.loading}
        </p>
      ) : (
        <MessageList messages={list} onRetry={retry} firstUnreadKey={firstUnread ?? null} foundKey={foundKey} footer={answering ? <TypingIndicator /> : null} onReply={mode === 'ready' ? reply : undefined} peerName={conversation?.specialist?.name ?? ''} />
      )}
      <NewMessageAnnouncer messages={list} />
      <PushPromptCard />
      {replyTo && mode === 'ready' && <ReplyPreview message={replyTo} onRemove={() => setReplyTo(null)} />}
      <SupportComposeNote show={mode === 'ready'} />
      <AttachmentComposer conversationId={conversationId} value={draft} onChange={setDraft} onSend={sendReply} showSending={showSending} mode={mode} dropTarget={section} />
    </section>
  );
}

function lastOwnMessage(list: readonly LocalMessage[]): LocalMessage | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (isOwn(list[i]!)) return list[i];
  return undefined;
}
