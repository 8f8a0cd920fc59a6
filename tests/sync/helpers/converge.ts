// Convergence checks (invariants 1–4): what the server holds for an account and a user, what a
// client's IndexedDB shows, and the differences between them.
import type pg from 'pg';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { conversationMessages } from '../../../sync/summary-store.ts';

export interface ServerConversation {
  id: string;
  status: string;
  archived: boolean;
  messages: { id: string; text: string; direction: string }[];
}

export async function serverView(db: pg.Pool, accountId: string): Promise<Map<string, ServerConversation>> {
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
export async function serverUnread(db: pg.Pool, accountId: string, userId: string): Promise<Map<string, number>> {
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

/** Every way the client differs from the server; empty when converged. */
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
    const msgs = await conversationMessages(local, c.id);
    const localList = msgs.map((m) => `${m.serverId ?? `(${m.state}:${m.key})`}|${m.text}`);
    const serverList = s.messages.map((m) => `${m.id}|${m.text}`);
    if (localList.join('\n') !== serverList.join('\n')) out.push(`${c.id} messages differ:\n  local  ${localList.join(', ')}\n  server ${serverList.join(', ')}`);
    const last = s.messages[s.messages.length - 1];
    if ((c.lastMessage?.id ?? null) !== (last?.id ?? null)) out.push(`${c.id} last message ${c.lastMessage?.id} != ${last?.id}`);
  }
  const stray = await local.messages.filter((m) => !localIds.has(m.conversationId)).count();
  if (stray) out.push(`${stray} messages of unknown conversations`);
  if (await local.outbox.count()) out.push(`${await local.outbox.count()} outbox entries left`);
  return out;
}
