// Rows as IndexedDB holds them and the UI reads them: camelCase, timestamps normalized
// (timestamps.ts), flags as 0/1 so they can be indexed.
import type { JsonObject } from './json.ts';

export type MessageState = 'sending' | 'sent' | 'failed';
/** server: a row of the server; optimistic: typed here, not yet matched; external: a provisional copy from Chatwoot's socket. */
export type MessageOrigin = 'server' | 'optimistic' | 'external';
export type Sender = 'user' | 'ai' | 'system';
export type Flag = 0 | 1;

export interface LocalMessage {
  /** Primary key: 'c:<correlation id>' when the message has one, else 's:<server id>' (or 'x:<external id>'). */
  key: string;
  serverId: string | null;
  conversationId: string;
  accountId: string | null;
  text: string;
  type: string;
  direction: string;
  source: string | null;
  chatwootMessageId: string | null;
  /** Normalized ISO timestamp with microseconds (UTC). */
  createdAt: string;
  /** createdAt + ' ' + id: the order of messages (R4.1). */
  orderKey: string;
  readAt: string | null;
  payload: JsonObject | null;
  correlationId: string | null;
  senderUserId: string | null;
  /** change_seq of the server row last merged; 0 for local-only copies. */
  changeSeq: number;
  state: MessageState;
  origin: MessageOrigin;
  /** The failure text shown for a failed send. */
  error: string | null;
  /** Client time the server accepted an optimistic copy without returning its row (external path). */
  confirmedAt: number | null;
}

/** Messages one committed write stored and deleted (the engine's subscribeStored, R6.5). */
export interface StoredMessages {
  put: LocalMessage[];
  removed: string[];
}

export interface LocalSpecialistSummary {
  id: string;
  name: string;
  role: string | null;
  avatarUrl: string | null;
  seniority: string | null;
  isAi: boolean;
}

export interface LocalLastMessage {
  key: string;
  id: string | null;
  text: string;
  direction: string;
  createdAt: string;
  /** R2.10: its attachments, for a row whose message has files and no text (absent: none). */
  files?: FilesSummary;
}

/** R2.10: what a list row says of files: how many, how many are images, the first one's name. */
export interface FilesSummary {
  count: number;
  images: number;
  name: string | null;
}

/** R14.1 the conversation's owner: the AI answers, a human was asked for, or a human answers. */
export type OwnerState = 'ai' | 'waiting' | 'human';

export interface LocalConversation {
  id: string;
  accountId: string;
  specialistId: string | null;
  status: string;
  lastMessageAt: string | null;
  /** What the UI shows: the pending local value while an archive entry is queued, else the server's. */
  archivedAt: string | null;
  serverArchivedAt: string | null;
  pendingArchive: Flag;
  archived: Flag;
  chatwootConversationId: string | null;
  /** R14.1: who answers now, as the server says (absent in rows stored before issue 39: 'ai'). */
  ownerState?: OwnerState;
  /** R14.1: when the user asked for a human (ISO, normalised), while waiting or human-owned. */
  ownerRequestedAt?: string | null;
  /** R14.1: the human specialist's name while human-owned. */
  ownerAgentName?: string | null;
  createdAt: string;
  updatedAt: string | null;
  changeSeq: number;
  specialist: LocalSpecialistSummary | null;
  lastMessage: LocalLastMessage | null;
  unreadCount: number;
  /** Newest of last_message_at and the last local message (R4.2); list order, descending. */
  sortAt: string;
}

export interface LocalReadCursor {
  conversationId: string;
  messageId: string | null;
  /** orderKey of the cursor's message; '' before any. */
  orderKey: string;
  lastReadAt: string | null;
  changeSeq: number;
  /** A local move not yet confirmed by the server. */
  pending: Flag;
  /** The server's position, restored when the server refuses the local move for good. */
  serverMessageId: string | null;
  serverOrderKey: string;
}

export interface LocalSpecialist extends LocalSpecialistSummary {
  bio: string | null;
  skills: string[];
  chatwootInboxId: number | null;
  /** 1 when the account may use it (get_active_specialists). */
  active: Flag;
}

export interface LocalAccount {
  id: string;
  name: string;
  plan: string | null;
  specialistsMode: string | null;
}

/**
 * R16.5: a file waiting in the composer's tray of one conversation, with its caption: kept like the
 * text (R16.1), so a reload, a closed app or another chat opened in between loses none of it.
 */
export interface LocalDraftFile {
  /** The tray item's id (the page's). */
  id: string;
  conversationId: string;
  /** The tray's order: ascending. */
  position: number;
  /** The name as picked. */
  name: string;
  kind: 'image' | 'file';
  /** The picked bytes, as they will be handed to sendWithAttachments. */
  blob: Blob;
  /** MIME type (the picked file's, as the page read it). */
  type: string;
  /** R12.13: an image the engine prepares when it is sent. */
  prepare: boolean;
  caption: string;
  /** R12.14's EXIF preview once its look-up answered (null: none found, or not answered yet). */
  preview: Blob | null;
  width: number | null;
  height: number | null;
  /** The look-up answered (a photo to prepare whose look-up had not is looked up again when the chat opens). */
  lookedUp: boolean;
}

/** R16.1: the composer's unsent text of one conversation (issue 40). */
export interface LocalDraft {
  conversationId: string;
  text: string;
  /** ms since epoch of the last edit. */
  updatedAt: number;
}

export interface LocalTyping {
  conversationId: string;
  startedAt: number;
}

export interface FeedMeta {
  key: 'feed';
  accountId: string | null;
  cursor: number;
  /** Client time of the last completed pull; null before the first. */
  pulledAt: number | null;
  /** R9.7: the server database's feed identity the cursor belongs to; null/absent before the first page. */
  epoch?: string | null;
  /** R19.6: conversations a backlog's pages touched whose summaries are not refreshed yet. */
  summariesPending?: string[];
  /** R19.5: how many transactions wrote messages under server keys (`s:`); absent: none yet. */
  serverWrites?: number;
}

export interface ReferenceMeta {
  key: 'reference';
  loadedAt: number | null;
  error: string | null;
}

/** R9.11: the server's clock minus this device's, as last learnt (server-time.ts). */
export interface ClockMeta {
  key: 'clock';
  offsetMs: number;
}

/**
 * R17.5: conversations whose older history a backlog's head left behind (receive/history.ts): their
 * newest page is here, older rows arrive with the feed until its cursor reaches `until`.
 */
export interface HistoryMeta {
  key: 'history';
  until: number;
  conversations: string[];
}

export type MetaRow = FeedMeta | ReferenceMeta | ClockMeta | HistoryMeta;

export interface CommandResult {
  id: string;
  ok: boolean;
  conversationId: string | null;
  created: boolean | null;
  error: string | null;
  at: number;
}
