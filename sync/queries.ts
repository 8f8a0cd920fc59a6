// Read-only queries for the UI, made for dexie-react-hooks' useLiveQuery: each takes the engine's
// `db` and returns a promise of plain rows (R4.2/R4.3).
import { Dexie } from 'dexie';
import { ASSISTANT_SPECIALIST_ID, UNREAD_BADGE_CAP } from './model/constants.ts';
import type { SyncDb } from './db/schema.ts';
import type { FeedMeta, FilesSummary, LocalAccount, LocalDraft, LocalDraftFile, LocalConversation, LocalMessage, LocalSpecialist, LocalTyping, ReferenceMeta } from './model/local-types.ts';
import { compareConversations } from './model/ordering.ts';
import { conversationMessages } from './db/summary-store.ts';

export type ConversationFilter = 'all' | 'unread' | 'active' | 'completed';

export interface ConversationListOptions {
  archived?: boolean;
  q?: string;
  filter?: ConversationFilter;
}

/** Case- and diacritics-insensitive text for search ('Žiadosť' matches 'ziadost'). */
export function foldText(s: string): string {
  return s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export function matchesFilter(c: LocalConversation, filter: ConversationFilter): boolean {
  switch (filter) {
    case 'all':
      return true;
    case 'unread':
      return c.unreadCount > 0;
    case 'active':
      return c.status === 'active';
    case 'completed':
      return c.status !== 'active';
  }
}

export function matchesSearch(c: LocalConversation, q: string): boolean {
  const needle = foldText(q.trim());
  if (needle === '') return true;
  return [c.specialist?.name, c.specialist?.role, c.lastMessage?.text].some((s) => typeof s === 'string' && foldText(s).includes(needle));
}

export async function conversationList(db: SyncDb, opts: ConversationListOptions = {}): Promise<LocalConversation[]> {
  const rows = await db.conversations.where('archived').equals(opts.archived ? 1 : 0).toArray();
  const filter = opts.filter ?? 'all';
  return rows.filter((c) => matchesFilter(c, filter) && matchesSearch(c, opts.q ?? '')).sort(compareConversations);
}

export function archivedCount(db: SyncDb): Promise<number> {
  return db.conversations.where('archived').equals(1).count();
}

/**
 * R11.5's badge: the unread count over every conversation, read through the unreadCount index from
 * 1 up. The page runs it again after every write its read range saw; a range from 1 (not "above 0":
 * Dexie's change tracking treats a range's bounds as closed, so 0 would count as touched) is touched
 * only by conversations whose count is or was at least 1, so an arrival in a chat that stays read —
 * every message of an open chat — does not re-run it. Reading all 201 conversations of the bench's
 * account after each message cost B ~2.4 ms of main thread per arrival (issue 19).
 */
export async function totalUnread(db: SyncDb): Promise<number> {
  let n = 0;
  for (const c of await db.conversations.where('unreadCount').aboveOrEqual(1).toArray()) n += c.unreadCount;
  return n;
}

export function conversation(db: SyncDb, id: string): Promise<LocalConversation | undefined> {
  return db.conversations.get(id);
}

/** The conversation's messages in order: created_at, then id (R4.1). */
export function messages(db: SyncDb, conversationId: string): Promise<LocalMessage[]> {
  return conversationMessages(db, conversationId);
}

/** How many of a chat's newest messages its live read re-reads after a write (see messagesAround). */
export const RECENT_WINDOW = 100;

/**
 * The orderKey splitting a chat into a stable older part and a recent part holding its newest
 * RECENT_WINDOW messages ('' when the chat is shorter: everything is recent). A new message sorts after
 * it, so a live query over the older part is not re-run by sends and arrivals (Dexie re-runs a live
 * query only when a write touches the index range it read).
 */
export async function recentSplit(db: SyncDb, conversationId: string): Promise<string> {
  const m = await db.messages
    .where('[conversationId+orderKey]')
    .between([conversationId, Dexie.minKey], [conversationId, Dexie.maxKey])
    .reverse()
    .offset(RECENT_WINDOW - 1)
    .first();
  return m?.orderKey ?? '';
}

/** The chat's messages before `split` (older) or from it on (recent), in R4.1 order. */
export function messagesAround(db: SyncDb, conversationId: string, split: string, part: 'older' | 'recent'): Promise<LocalMessage[]> {
  const range = db.messages.where('[conversationId+orderKey]');
  return (
    part === 'older'
      ? split === ''
        ? Promise.resolve([])
        : range.between([conversationId, Dexie.minKey], [conversationId, split], true, false).toArray()
      : range.between([conversationId, split === '' ? Dexie.minKey : split], [conversationId, Dexie.maxKey], true, true).toArray()
  );
}

/** The newest message the server has stored: what markRead should be called with. */
export async function lastServerMessage(db: SyncDb, conversationId: string): Promise<LocalMessage | undefined> {
  const all = await conversationMessages(db, conversationId);
  for (let i = all.length - 1; i >= 0; i--) if (all[i]!.serverId !== null && all[i]!.origin === 'server') return all[i];
  return undefined;
}

export async function specialists(db: SyncDb): Promise<LocalSpecialist[]> {
  const rows = await db.specialists.where('active').equals(1).toArray();
  return rows.sort((a, b) => a.name.localeCompare(b.name, 'sk'));
}

export async function account(db: SyncDb): Promise<LocalAccount | undefined> {
  return db.account.toCollection().first();
}

export function typing(db: SyncDb, conversationId: string): Promise<LocalTyping | undefined> {
  return db.typing.get(conversationId);
}

export async function assistantConversation(db: SyncDb): Promise<LocalConversation | undefined> {
  return db.conversations.where('specialistId').equals(ASSISTANT_SPECIALIST_ID).first();
}

/** Messages typed here and not yet accepted by the server (sign-out would lose them). */
export function unsentCount(db: SyncDb): Promise<number> {
  return db.messages.where('state').anyOf('sending', 'failed').count();
}

export async function feed(db: SyncDb): Promise<FeedMeta | undefined> {
  const row = await db.meta.get('feed');
  return row?.key === 'feed' ? row : undefined;
}

export async function reference(db: SyncDb): Promise<ReferenceMeta | undefined> {
  const row = await db.meta.get('reference');
  return row?.key === 'reference' ? row : undefined;
}

/** The badge text: '99+' above the cap. */
export function unreadBadge(count: number): string {
  return count > UNREAD_BADGE_CAP ? `${UNREAD_BADGE_CAP}+` : String(count);
}

/** R9.11: the server's clock minus this device's (ms), as the engine last stored it; 0 before. */
export async function serverClockOffset(db: SyncDb): Promise<number> {
  const row = await db.meta.get('clock');
  return row?.key === 'clock' ? row.offsetMs : 0;
}

/** R16.1: every conversation's draft (the list's 'Koncept: …'); a few rows, one per conversation typed in. */
export function drafts(db: SyncDb): Promise<LocalDraft[]> {
  return db.drafts.toArray();
}

/**
 * R16.5: every conversation whose tray keeps files, with what the list says of them (R2.10's
 * summary, in the tray's order); the list's 'Koncept:' names them when the draft has no text.
 */
export async function draftTrays(db: SyncDb): Promise<{ conversationId: string; files: FilesSummary }[]> {
  const byConversation = new Map<string, LocalDraftFile[]>();
  await db.draftFiles.each((f) => {
    const list = byConversation.get(f.conversationId);
    if (list) list.push(f);
    else byConversation.set(f.conversationId, [f]);
  });
  return [...byConversation].map(([conversationId, files]) => {
    const first = files.reduce((a, b) => (b.position < a.position ? b : a));
    return { conversationId, files: { count: files.length, images: files.filter((f) => f.kind === 'image').length, name: first.name || null } };
  });
}

/** R16.1: one conversation's draft text, '' when none. */
export async function draftText(db: SyncDb, conversationId: string): Promise<string> {
  return (await db.drafts.get(conversationId))?.text ?? '';
}

/** R17.5: older messages of the conversation are still on their way (a backlog's head left it partial). */
export { olderHistoryPending } from './receive/history.ts';

/** R2.9: where the chat opens: the read cursor's place, and the first unread message of the list shown. */
export { firstUnreadKey, readPosition } from './first-unread.ts';
