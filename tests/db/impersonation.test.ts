// Impersonation enforced by the server: after start_impersonation a super admin acts inside the
// account (RLS, sync_pull, RPCs) exactly like its member, every write is audited, and stopping
// (or losing the role) returns them to their own account. Members cannot impersonate.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createUser, db, errorOf, ok, one, rest, rows, rpc, serverMessage, type TestUser } from './helpers.ts';

interface Audit {
  actor_user_id: string;
  account_id: string | null;
  action: string;
  table_name: string | null;
  row_id: string | null;
  details: Record<string, unknown>;
}

let admin: TestUser;
let a: TestUser;
let b: TestUser;
let convA: string;
let convB: string;

const auditOf = (actor: string) =>
  rows<Audit>('select actor_user_id, account_id, action, table_name, row_id, details from public.audit_log where actor_user_id = $1 order by id', [actor]);

const pullIds = async (caller: TestUser['caller']) =>
  ok<{ conversations: { id: string }[] }>(await rpc(caller, 'sync_pull', { p_since: 0, p_limit: 1000 })).conversations.map((c) => c.id);

beforeAll(async () => {
  admin = await createUser('imp-admin', { superAdmin: true });
  a = await createUser('imp-a');
  b = await createUser('imp-b');
  convA = await createConversation(a.accountId);
  convB = await createConversation(b.accountId);
  await serverMessage(convA, 'specialist', 'Dobrý deň, A');
  await serverMessage(convB, 'specialist', 'Dobrý deň, B');
});
afterAll(closeDb);

describe('impersonation', () => {
  it('a member cannot impersonate', async () => {
    const res = await rpc(a.caller, 'start_impersonation', { p_account_id: b.accountId });
    expect(res.status).toBe(403);
    expect(errorOf(res).code).toBe('42501');
    expect(await rows('select 1 from public.impersonations where admin_user_id = $1', [a.id])).toHaveLength(0);
    expect(await pullIds(a.caller)).toEqual([convA]);
    expect(ok<unknown[]>(await rest(a.caller, 'GET', `conversations?id=eq.${convB}`))).toEqual([]);
  });

  it('a super admin acts inside the impersonated account, audited, until stopping', async () => {
    // Before: the admin's own (empty) account, none of A's chat rows, though all accounts are listed.
    expect(await pullIds(admin.caller)).toEqual([]);
    expect(ok<unknown[]>(await rest(admin.caller, 'GET', `conversations?id=eq.${convA}`))).toEqual([]);
    expect(ok<unknown[]>(await rest(admin.caller, 'GET', `accounts?id=eq.${a.accountId}`))).toHaveLength(1);
    const refused = await rpc(admin.caller, 'send_message', { p_conversation_id: convA, p_text: 'not yet', p_client_correlation_id: randomUUID() });
    // Refused, nothing stored; a super admin is told the conversation is of another account (R9.8,
    // migration 20261124001000), where a member would read 'Conversation not found'.
    expect(refused.status).toBe(409);
    expect(errorOf(refused).message).toBe('Conversation is in another account');
    expect(await rows('select 1 from public.messages where conversation_id = $1 and sender_user_id = $2', [convA, admin.id])).toHaveLength(0);

    const started = ok<{ id: string; name: string }>(await rpc(admin.caller, 'start_impersonation', { p_account_id: a.accountId }));
    expect(started.id).toBe(a.accountId);
    expect(ok<string>(await rpc(admin.caller, 'current_account_id'))).toBe(a.accountId);

    // Reads: A's rows, never B's.
    expect(await pullIds(admin.caller)).toEqual([convA]);
    expect(ok<unknown[]>(await rest(admin.caller, 'GET', `messages?conversation_id=eq.${convA}`))).toHaveLength(1);
    expect(ok<unknown[]>(await rest(admin.caller, 'GET', `messages?conversation_id=eq.${convB}`))).toEqual([]);
    const counts = ok<{ conversation_id: string }[]>(await rpc(admin.caller, 'get_unread_counts'));
    expect(counts.map((c) => c.conversation_id)).toEqual([convA]);

    // Writes land in A and in the audit log.
    const sent = ok<{ id: string; account_id: string; sender_user_id: string }>(
      await rpc(admin.caller, 'send_message', { p_conversation_id: convA, p_text: 'Píše admin', p_client_correlation_id: randomUUID() }),
    );
    expect(sent).toMatchObject({ account_id: a.accountId, sender_user_id: admin.id });
    ok(await rest(admin.caller, 'PATCH', `conversations?id=eq.${convA}`, { archived_at: new Date().toISOString() }));
    const intoB = await rest(admin.caller, 'POST', 'messages', { conversation_id: convB, direction: 'user', text: 'wrong account' });
    expect(intoB.status).toBeGreaterThanOrEqual(400);

    const audit = await auditOf(admin.id);
    expect(audit.map((r) => [r.action, r.table_name])).toEqual([
      ['impersonation.start', null],
      ['impersonated.insert', 'messages'],
      ['impersonated.update', 'conversations'],
    ]);
    expect(audit[1]).toMatchObject({ account_id: a.accountId, row_id: sent.id });
    expect(Object.keys(audit[2]!.details.changed as object)).toContain('archived_at');

    // The member sees what the admin wrote.
    expect(ok<unknown[]>(await rest(a.caller, 'GET', `messages?id=eq.${sent.id}`))).toHaveLength(1);

    ok(await rpc(admin.caller, 'stop_impersonation'));
    expect(await pullIds(admin.caller)).toEqual([]);
    expect(ok<unknown[]>(await rest(admin.caller, 'GET', `messages?conversation_id=eq.${convA}`))).toEqual([]);
    expect((await auditOf(admin.id)).at(-1)?.action).toBe('impersonation.stop');
  });

  it('losing the super_admin role ends the impersonation at once', async () => {
    const lapsed = await createUser('imp-lapsed', { superAdmin: true });
    ok(await rpc(lapsed.caller, 'start_impersonation', { p_account_id: b.accountId }));
    expect(await pullIds(lapsed.caller)).toEqual([convB]);
    await db().query('delete from public.app_users where user_id = $1', [lapsed.id]);
    expect(await pullIds(lapsed.caller)).toEqual([]);
    expect(ok<string>(await rpc(lapsed.caller, 'current_account_id'))).toBe(lapsed.accountId);
  });

  it('impersonating an unknown account is refused', async () => {
    const res = await rpc(admin.caller, 'start_impersonation', { p_account_id: randomUUID() });
    expect(errorOf(res).code).toBe('P0002');
    expect(await one<{ n: string }>('select count(*) as n from public.impersonations where admin_user_id = $1', [admin.id])).toEqual({ n: '0' });
  });
});
