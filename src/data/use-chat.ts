// What the chat screen reads and how it sends: from IndexedDB through the sync engine, or in the
// online-only baseline build from the server (online-only/). The choice is a build-time constant.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { conversation as conversationQuery, messagesAround, recentSplit } from '../../sync/queries.ts';
import type { LocalConversation, LocalMessage } from '../../sync/model/local-types.ts';
import type { JsonObject } from '../../sync/model/json.ts';
import { correlationKey } from '../../sync/merge/message.ts';
import { orderKeyOf } from '../../sync/model/ordering.ts';
import { afterArriving, nextRecent, overlayParts, type Recent } from '../../sync/receive/recent.ts';
import { keepIfSame } from '../../sync/receive/stable-list.ts';
import { timestampFromMs } from '../../sync/model/timestamps.ts';
import { ONLINE_ONLY } from './online-only/flag.ts';
import { useOnlineChat } from './online-only/use-online-chat.ts';
import { useSyncDb, useSyncEngine } from './sync-context.ts';
import { useSyncQuery } from './use-sync-query.ts';
import { announceSent } from '../pwa/sent-signal.ts';

export interface ChatData {
  conversation: LocalConversation | undefined;
  /** Whether `conversation` is an answer: false while it is still being read (then undefined means "not known yet", not "missing"). */
  conversationRead: boolean;
  /** undefined until the first answer. */
  messages: LocalMessage[] | undefined;
  /** Resolves true once the message is stored (locally, or sent in the baseline). `payload`: e.g. a reply's `reply_to` (issue 40). */
  send: (text: string, payload?: JsonObject | null) => Promise<boolean>;
  /**
   * Shows an own bubble (text and payload) from memory under `key` — the key the stored copy will
   * have — until that copy is listed: a send the caller stores itself (issue 38, a message with files,
   * src/pages/chat/attachments/AttachmentComposer.tsx). The function returned drops it (the write failed).
   */
  showSending: (key: string, text: string, payload: JsonObject) => () => void;
}

/** A bubble shown from memory for the frames between Enter and the live query's next answer. */
function pendingBubble(conversationId: string, key: string, text: string, payload: JsonObject | null): LocalMessage {
  const createdAt = timestampFromMs(Date.now());
  return {
    key,
    serverId: null,
    conversationId,
    accountId: null,
    text: text.trim(),
    type: 'text',
    direction: 'user',
    source: 'app',
    chatwootMessageId: null,
    createdAt,
    orderKey: orderKeyOf(createdAt, key),
    readAt: null,
    payload,
    correlationId: null,
    senderUserId: null,
    changeSeq: 0,
    state: 'sending',
    origin: 'optimistic',
    error: null,
    confirmedAt: null,
  };
}

function useLocalChat(conversationId: string): ChatData {
  const engine = useSyncEngine();
  const conversationResult = useSyncQuery((db) => conversationQuery(db, conversationId), [conversationId]);
  const conversation = conversationResult?.value;
  // Two live reads split at the orderKey before the newest RECENT_WINDOW messages (fixed while the
  // chat is open): a send or an arrival re-reads only the recent part, not the whole conversation, so
  // the IndexedDB and main-thread time after each write stays small and the send's own request is
  // not held behind it (bench row 4). Edits of older messages re-run the older read.
  const [splitOf, setSplitOf] = useState<{ conversationId: string; split: string } | null>(null);
  const db = useSyncDb();
  useEffect(() => {
    if (!db) return;
    let live = true;
    void recentSplit(db, conversationId).then(
      (split) => live && setSplitOf({ conversationId, split }),
      () => live && setSplitOf({ conversationId, split: '' }), // read everything as recent
    );
    return () => {
      live = false;
    };
  }, [db, conversationId]);
  const split = splitOf?.conversationId === conversationId ? splitOf.split : undefined;
  const older = useSyncQuery(async (db) => (split === undefined ? undefined : messagesAround(db, conversationId, split, 'older')), [conversationId, split])?.value;
  const newer = useSyncQuery(
    async (db) => {
      if (split === undefined) return undefined;
      // Taken before the read starts: every publication up to this one is in what it returns.
      const generation = engine?.storedGeneration() ?? 0;
      return { generation, rows: await messagesAround(db, conversationId, split, 'recent') };
    },
    [conversationId, split],
  )?.value;
  const [recent, setRecent] = useState<ReadonlyMap<string, Recent>>(() => new Map());
  const readGeneration = useRef(0);
  useEffect(() => {
    readGeneration.current = newer?.generation ?? 0;
  }, [newer]);
  useEffect(() => {
    if (!engine) return;
    // Publications the latest answered read already covers are forgotten (nextRecent).
    const offStored = engine.subscribeStored((stored, generation) => {
      const put = stored.put.filter((m) => m.conversationId === conversationId);
      if (put.length === 0 && stored.removed.length === 0) return;
      setRecent((prev) => nextRecent(prev, readGeneration.current, { put, removed: stored.removed, generation }));
    });
    // R6.6: a message from another device paints from the realtime event, while it is written; its
    // stored row then takes the same key (one element, no flicker).
    const offArriving = engine.subscribeArriving((a) => {
      if ('row' in a && a.row.conversationId !== conversationId) return;
      const generation = engine.storedGeneration();
      // Rendered in React's next task, not synchronously here (flushSync): measured in bench row 4,
      // rendering within the event's task held the write back (B's commit 27 ms p50 against 17) and
      // painted later, not sooner (13.6 ms against 10.1 after the frame).
      setRecent((prev) => afterArriving(prev, readGeneration.current, a, generation));
    });
    return () => {
      offStored();
      offArriving();
    };
  }, [engine, conversationId]);
  // R6.7: an answer equal field for field to what is shown keeps the shown array (no re-render).
  // The last array shown is kept in a ref, not state: state would render the chat twice per change.
  const shown = useRef<LocalMessage[] | undefined>(undefined);
  const live = useMemo(() => {
    if (!older || !newer) return undefined;
    return (shown.current = keepIfSame(shown.current, overlayParts(older, newer.rows, newer.generation, recent, conversationId)));
  }, [older, newer, recent, conversationId]);
  // The own bubble paints in the frame after Enter (bench row 3): the send's IndexedDB write and the
  // re-read of the whole conversation take longer than a frame. The bubble carries the key the stored
  // copy will have (the correlation id is chosen here), so it is shown only while no row with that key
  // is in the live list — never both, whichever of the write's return and the engine's publication
  // comes first — and React keeps one element across the swap. A refused or failed write drops it (the
  // composer keeps the text, invariant 1).
  const [pending, setPending] = useState<LocalMessage[]>([]);
  // A send whose local write failed (e.g. storage full) keeps the text in the composer, but its early
  // request (R1.12) may already have reached the server. Sending the same text again reuses that
  // correlation id, so the server answers with the row it has instead of storing a second copy.
  const unsaved = useRef(new Map<string, string>());
  // Keys of sends made here that have not reached the server yet: the notifications prompt is offered
  // only once one of them is 'sent' (issue 37: not for a send that waits offline or is refused).
  const awaiting = useRef(new Set<string>());
  const send = useCallback(
    async (text: string, payload: JsonObject | null = null) => {
      if (!engine || text.trim() === '') return false;
      const retryOf = `${conversationId}\n${text}`;
      const correlationId = unsaved.current.get(retryOf) ?? globalThis.crypto.randomUUID();
      const key = correlationKey(correlationId);
      setPending((list) => [...list, pendingBubble(conversationId, key, text, payload)]);
      const forget = () => {
        awaiting.current.delete(key);
        setPending((list) => list.filter((p) => p.key !== key));
      };
      // Awaited from before the send starts: a fast send (R1.12) can be stored and listed as 'sent'
      // before sendMessage returns, and a key added only then would never see its 'sent' again.
      awaiting.current.add(key);
      try {
        const handle = await engine.commands.sendMessage({ conversationId, text, correlationId, payload });
        unsaved.current.delete(retryOf);
        if (!handle) forget();
        return handle !== null;
      } catch (err) {
        unsaved.current.set(retryOf, correlationId);
        forget();
        throw err;
      }
    },
    [engine, conversationId],
  );
  const showSending = useCallback(
    (key: string, text: string, payload: JsonObject) => {
      setPending((list) => [...list, pendingBubble(conversationId, key, text, payload)]);
      return () => setPending((list) => list.filter((p) => p.key !== key));
    },
    [conversationId],
  );
  const messages = useMemo(() => {
    if (!live) return live;
    if (pending.length === 0) return live;
    const keys = new Set(live.map((m) => m.key));
    const shown = pending.filter((p) => !keys.has(p.key));
    return shown.length === 0 ? live : [...live, ...shown];
  }, [live, pending]);
  useEffect(() => {
    if (!live || awaiting.current.size === 0) return;
    for (const m of live) {
      if (!awaiting.current.has(m.key) || m.state === 'sending') continue;
      awaiting.current.delete(m.key);
      if (m.state === 'sent') announceSent();
    }
  }, [live]);
  // Bubbles whose stored copy is listed are done; dropping them keeps the list from growing.
  useEffect(() => {
    if (!live || pending.length === 0) return;
    const keys = new Set(live.map((m) => m.key));
    if (pending.some((p) => keys.has(p.key))) setPending((list) => list.filter((p) => !keys.has(p.key)));
  }, [live, pending]);
  return { conversation, conversationRead: conversationResult !== undefined, messages, send, showSending };
}

export const useChat: (conversationId: string) => ChatData = ONLINE_ONLY ? useOnlineChat : useLocalChat;
