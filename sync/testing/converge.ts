// Convergence checks (invariants 1–4): what the server holds for an account and a user (read as the
// database superuser, e.g. a `pg` Pool on the stack's database URL), what a device's IndexedDB shows,
// the differences between them, and whether every typed message was delivered exactly once or
// failed with a reason.
import type { SyncDb } from '../db/schema.ts';
import { conversationMessages } from '../db/summary-store.ts';

/** What the checks need of a database connection (a `pg` Pool or client fits). */
export interface Queryable {
  query<R extends object>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

export interface ServerConversation {
  id: string;
  status: string;
  archived: boolean;
  messages: { id: string; text: string; direction: string }[];
}

export async function serverView(db: Queryable, accountId: string): Promise<Map<string, ServerConversation>> {
  const convs = await db.query<{ id: string; status: string; archived: boolean }>(
    'select id, status, archived_at is not null as archived from public.conversations where account_id = $1',
    [accountId],
  );
  const msgs = await db.query<{ id: string; conversation_id: string; text: string | null; direction: string }>(
    'select id, conversation_id, text, direction from public.messages where account_id = $1 order by conversation_id, created_at, id',
    [accountId],
  );
  const view = new Map<string, ServerConversation>();
  for (const c of convs.rows) view.set(c.id, { ...c, messages: [] });
  for (const m of msgs.rows) view.get(m.conversation_id)?.messages.push({ id: m.id, text: m.text ?? '', direction: m.direction });
  return view;
}

/** get_unread_counts' rule, computed as the superuser for any user. */
export async function serverUnread(db: Queryable, accountId: string, userId: string): Promise<Map<string, number>> {
  const r = await db.query<{ id: string; n: number }>(
    `select c.id,
            (select count(*)::int from public.messages m
              where m.conversation_id = c.id and m.direction = 'specialist'
                and (rc.last_read_message_id is null or (m.created_at, m.id) > (rc.last_read_at, rc.last_read_message_id))) as n
       from public.conversations c
       left join public.read_cursors rc on rc.conversation_id = c.id and rc.user_id = $2
      where c.account_id = $1`,
    [accountId, userId],
  );
  return new Map(r.rows.map((x) => [x.id, x.n]));
}

/**
 * Every way the client differs from the server; empty when converged. A message that failed with a
 * reason (R1.4, R9.3) is the user's text kept with what went wrong, not a divergence:
 * `deliveryProblems` judges it.
 */
export async function differences(local: SyncDb, server: Map<string, ServerConversation>, unread: Map<string, number>): Promise<string[]> {
  const out: string[] = [];
  const convs = await local.conversations.toArray();
  const localIds = new Set(convs.map((c) => c.id));
  for (const id of server.keys()) if (!localIds.has(id)) out.push(`conversation ${id} missing`);
  for (const c of convs) {
    const s = server.get(c.id);
    if (!s) {
      out.push(`conversation ${c.id} not on the server (or another account's)`);
      continue;
    }
    if (c.status !== s.status) out.push(`${c.id} status ${c.status} != ${s.status}`);
    if ((c.archived === 1) !== s.archived) out.push(`${c.id} archived ${c.archived} != ${s.archived}`);
    if (c.unreadCount !== (unread.get(c.id) ?? 0)) out.push(`${c.id} unread ${c.unreadCount} != ${unread.get(c.id)}`);
    const all = await conversationMessages(local, c.id);
    const failed = new Set(all.filter((m) => m.state === 'failed' && m.serverId === null && m.error).map((m) => m.key));
    const msgs = all.filter((m) => !failed.has(m.key));
    const localList = msgs.map((m) => `${m.serverId ?? `(${m.state}:${m.key})`}|${m.text}`);
    const serverList = s.messages.map((m) => `${m.id}|${m.text}`);
    if (localList.join('\n') !== serverList.join('\n')) out.push(`${c.id} messages differ:\n  local  ${localList.join(', ')}\n  server ${serverList.join(', ')}`);
    const last = s.messages[s.messages.length - 1];
    if (!(c.lastMessage && failed.has(c.lastMessage.key)) && (c.lastMessage?.id ?? null) !== (last?.id ?? null)) out.push(`${c.id} last message ${c.lastMessage?.id} != ${last?.id}`);
  }
  // Unsent messages of another account's conversations are the user's text kept across an account
  // switch (R9.8): `deliveryProblems` and the outbox check judge them, not this.
  const stray = await local.messages.filter((m) => !localIds.has(m.conversationId) && !(m.serverId === null && m.state !== 'sent')).count();
  if (stray) out.push(`${stray} messages of unknown conversations`);
  if (await local.outbox.count()) out.push(`${await local.outbox.count()} outbox entries left`);
  return out;
}

/** A message the user typed on a device: what the delivery check follows. */
export interface TypedMessage {
  /** Unique per test run: the server's copy is found by it. */
  text: string;
  accountId: string;
  conversationId: string;
  /** The message's local key (the send handle's `key`). */
  key: string;
  /** The typing device's database (where a failure and its reason show). */
  db: () => SyncDb | null;
  /** A name in the report. */
  who?: string;
  /**
   * R9.7: the server had stored it after the backup a restore went back to, so the restore took it
   * away: absent from the server (and so from the device) is right; stored once is right too (its
   * device had not heard the server's answer and sent it again); twice is still a duplicate.
   */
  lostByRestore?: boolean;
}

/**
 * Invariants 1 and 2 for typed messages: each is stored on the server exactly once, or failed on
 * the device that typed it with a reason and is not on the server, or its conversation was deleted
 * on the server (it took its messages with it, R2.6; the send must not be left queued), or a restore
 * took it from the server (`lostByRestore`, R9.7; not left queued either). Nothing else:
 * a message neither stored nor failed is lost, one stored twice is duplicated.
 */
export async function deliveryProblems(db: Queryable, typed: readonly TypedMessage[]): Promise<string[]> {
  const out: string[] = [];
  if (typed.length === 0) return out;
  const rows = await db.query<{ text: string; account_id: string; conversation_id: string; n: string }>(
    `select text, account_id, conversation_id, count(*) as n from public.messages
      where account_id = any($1) and direction = 'user' and text = any($2) group by text, account_id, conversation_id`,
    [[...new Set(typed.map((t) => t.accountId))], typed.map((t) => t.text)],
  );
  const counts = new Map(rows.rows.map((x) => [`${x.account_id}|${x.conversation_id}|${x.text}`, Number(x.n)]));
  const live = await db.query<{ id: string }>('select id from public.conversations where id = any($1)', [[...new Set(typed.map((t) => t.conversationId))]]);
  const exists = new Set(live.rows.map((r) => r.id));
  for (const t of typed) {
    const who = t.who ? `${t.who}: ` : '';
    const n = counts.get(`${t.accountId}|${t.conversationId}|${t.text}`) ?? 0;
    const local = await t.db()?.messages.get(t.key);
    if (n > 1) out.push(`${who}typed "${t.text}" stored ${n} times`);
    else if (n === 1) {
      if (local?.state === 'failed') out.push(`${who}typed "${t.text}" stored, yet shown failed (${local.error})`);
    } else if (!exists.has(t.conversationId)) {
      const queued = await t.db()?.outbox.filter((o) => JSON.stringify(o).includes(t.key.slice(2))).count();
      if (queued) out.push(`${who}typed "${t.text}" into a deleted conversation is still queued`);
    } else if (local?.state === 'failed' && local.error) continue;
    else if (t.lostByRestore) {
      const queued = await t.db()?.outbox.filter((o) => JSON.stringify(o).includes(t.key.slice(2))).count();
      if (queued) out.push(`${who}typed "${t.text}", lost by a restore, is still queued`);
      else if (local) out.push(`${who}typed "${t.text}", lost by a restore, still shown ${local.state} on its device`);
    }
    else out.push(`${who}typed "${t.text}" lost (not on the server; local state ${local?.state ?? 'gone'})`);
  }
  return out;
}
