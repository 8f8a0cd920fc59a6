// The local store: one IndexedDB database per signed-in user (R1.11). Versions only ever get added;
// each later version says what it changes and upgrades the rows an earlier one left.
//
// v1  conversations, messages, read cursors, specialists, account, outbox, meta
// v2  results of server-side commands, typing starts, message origin/confirmedAt, specialist `active`
// v3  index on messages.confirmedAt: the 30 s sweep reads only unmatched confirmed copies (R3.5)
// v4  index [conversationId+direction+orderKey]: unread counts are index counts (R2.8)
// v5  outbox entries lose `nextAttemptAt`: no wall-clock deadline is stored any more (R9.6); claims
//     written by an older engine are dropped with it. Entries, attempts and errors stay.
// v6  index on conversations.unreadCount: the app badge (R11.5) reads only conversations with unread
//     messages, and its live query is not re-run by writes that leave a count at 0 (issue 19)
// v7  the attachment outbox (R12, issue 38): jobs per message, uploads and blobs per object
// v8  composer drafts (R16.1)
// v9  files waiting in a composer's tray, with their captions (R16.5)
// v10 a stored summary whose last message has no text learns that message's files (R2.10); no index
import { Dexie, type DexieOptions, type EntityTable, type Table, type Transaction } from 'dexie';
import type {
  CommandResult,
  LocalAccount,
  LocalConversation,
  LocalMessage,
  LocalReadCursor,
  LocalSpecialist,
  LocalDraft,
  LocalDraftFile,
  LocalTyping,
  MetaRow,
} from '../model/local-types.ts';
import type { OutboxEntry } from '../send/outbox.ts';
import type { AttachmentBlobRow, AttachmentJobRow, AttachmentUploadRow } from '../attachments/rows.ts';
import { writeWatchMiddleware, type WriteListener } from './write-watch.ts';
import { filesSummary } from '../merge/summary.ts';

export const DB_PREFIX = 'poradna-sync-';

export function dbNameFor(userId: string): string {
  return `${DB_PREFIX}${userId}`;
}

export interface StoreVersion {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void>;
}

/** v1 → v2: rows written by v1 lacked these fields. */
async function upgradeToV2(tx: Transaction): Promise<void> {
  await tx.table('messages').toCollection().modify((m: Partial<LocalMessage>) => {
    m.origin ??= m.serverId ? 'server' : 'optimistic';
    m.confirmedAt ??= null;
  });
  await tx.table('specialists').toCollection().modify((s: Partial<LocalSpecialist>) => {
    s.active ??= 1;
  });
}

/** v4 → v5: R9.6. Nothing else of the entries changes. */
async function upgradeToV5(tx: Transaction): Promise<void> {
  await tx.table('outbox').toCollection().modify((e: Partial<OutboxEntry> & { nextAttemptAt?: number }) => {
    delete e.nextAttemptAt;
    e.claim = null;
  });
}

/**
 * v9 → v10: R2.10. Summaries stored before carry no `files`, so a conversation whose last message is
 * a photo or a document without text would read 'No messages yet' until its next change. Only rows
 * whose last message has no text are looked at; each reads that one message.
 */
async function upgradeToV10(tx: Transaction): Promise<void> {
  const bare = (await tx
    .table('conversations')
    .filter((c: LocalConversation) => c.lastMessage !== null && c.lastMessage.text === '' && c.lastMessage.files === undefined)
    .toArray()) as LocalConversation[];
  for (const c of bare) {
    const last = c.lastMessage!;
    const message = (await tx.table('messages').get(last.key)) as LocalMessage | undefined;
    const files = message ? filesSummary(message.payload) : undefined;
    if (files) await tx.table('conversations').update(c.id, { lastMessage: { ...last, files } });
  }
}

export const STORE_VERSIONS: readonly StoreVersion[] = [
  {
    version: 1,
    stores: {
      conversations: 'id, archived, sortAt, specialistId, chatwootConversationId',
      messages: 'key, serverId, conversationId, [conversationId+orderKey], chatwootMessageId',
      readCursors: 'conversationId',
      specialists: 'id',
      account: 'id',
      outbox: '++seq, &key',
      meta: 'key',
    },
  },
  {
    version: 2,
    stores: {
      messages: 'key, serverId, conversationId, [conversationId+orderKey], chatwootMessageId, state',
      specialists: 'id, active',
      results: 'id',
      typing: 'conversationId',
    },
    upgrade: upgradeToV2,
  },
  {
    version: 3,
    stores: {
      messages: 'key, serverId, conversationId, [conversationId+orderKey], chatwootMessageId, state, confirmedAt',
    },
  },
  {
    version: 4,
    stores: {
      messages: 'key, serverId, conversationId, [conversationId+orderKey], [conversationId+direction+orderKey], chatwootMessageId, state, confirmedAt',
    },
  },
  { version: 5, stores: {}, upgrade: upgradeToV5 },
  {
    version: 6,
    stores: {
      conversations: 'id, archived, sortAt, specialistId, chatwootConversationId, unreadCount',
    },
  },
  {
    version: 7,
    stores: {
      attachmentJobs: 'messageKey, state',
      attachmentUploads: 'id, messageKey, state',
      attachmentBlobs: 'id, messageKey',
    },
  },
  // R16.1 (issue 40): composer drafts, one per conversation; dropped with the database (R1.11).
  { version: 8, stores: { drafts: 'conversationId' } },
  // R16.5: the tray's files, by item id and by conversation; dropped with the database (R1.11).
  { version: 9, stores: { draftFiles: 'id, conversationId' } },
  // R2.10: the list's summaries learn their last message's files.
  { version: 10, stores: {}, upgrade: upgradeToV10 },
];

export const SCHEMA_VERSION = STORE_VERSIONS[STORE_VERSIONS.length - 1]!.version;

export class SyncDb extends Dexie {
  conversations!: EntityTable<LocalConversation, 'id'>;
  messages!: EntityTable<LocalMessage, 'key'>;
  readCursors!: EntityTable<LocalReadCursor, 'conversationId'>;
  specialists!: EntityTable<LocalSpecialist, 'id'>;
  account!: EntityTable<LocalAccount, 'id'>;
  outbox!: EntityTable<OutboxEntry, 'seq'>;
  meta!: Table<MetaRow, MetaRow['key']>;
  results!: EntityTable<CommandResult, 'id'>;
  typing!: EntityTable<LocalTyping, 'conversationId'>;
  attachmentJobs!: EntityTable<AttachmentJobRow, 'messageKey'>;
  attachmentUploads!: EntityTable<AttachmentUploadRow, 'id'>;
  attachmentBlobs!: EntityTable<AttachmentBlobRow, 'id'>;
  /** R16.1: not among syncTables (no merge touches it); a send's transaction adds it (R16.2). */
  drafts!: EntityTable<LocalDraft, 'conversationId'>;
  /** R16.5: not among syncTables either; a file send's transaction adds it. */
  draftFiles!: EntityTable<LocalDraftFile, 'id'>;
  /** R1.12: told every write to the outbox and the conversations (db/write-watch.ts); the engine's send-watch.ts. */
  writeListener: WriteListener | null = null;

  constructor(name: string, options: DexieOptions = {}, upTo = SCHEMA_VERSION) {
    super(name, options);
    this.use(writeWatchMiddleware(this));
    for (const v of STORE_VERSIONS) {
      if (v.version > upTo) break;
      const declared = this.version(v.version).stores(v.stores);
      if (v.upgrade) declared.upgrade(v.upgrade);
    }
  }

  /** Every table a merge may touch; the engine's write transactions take all of them. */
  get syncTables() {
    return [this.conversations, this.messages, this.readCursors, this.specialists, this.account, this.outbox, this.meta, this.results, this.typing];
  }

  /** R12: the attachment outbox's tables (with syncTables when a write also touches messages or the outbox). */
  get attachmentTables() {
    return [this.attachmentJobs, this.attachmentUploads, this.attachmentBlobs];
  }
}
