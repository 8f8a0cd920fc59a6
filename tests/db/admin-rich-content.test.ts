// Issue 21 admin item 5: the rich content test of /admin/chatwoot reads rich messages of EVERY account
// for a super admin (admin_rich_messages, 20261124000200), while a member, the anon key and a plain
// REST read still see only their own account's rows (the attack: a member asks the function for another
// account's conversation, or for everything).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSISTANT_ID, anon, closeDb, createUser, errorOf, one, rest, rpc, type TestUser } from './helpers.ts';

let owner: TestUser;
let other: TestUser;
let admin: TestUser;
let conversationId: string;
let richId: string;

beforeAll(async () => {
  owner = await createUser('rich-owner');
  other = await createUser('rich-other');
  admin = await createUser('rich-admin', { superAdmin: true });
  const started = await rpc(owner.caller, 'start_conversation', { p_specialist_id: ASSISTANT_ID });
  expect(started.status).toBe(200);
  conversationId = (started.body as { conversation_id: string }).conversation_id;
  // A rich_content card written by the server (superuser: no client guard applies).
  richId = (
    await one<{ id: string }>(
      `insert into public.messages (conversation_id, text, type, direction, source, payload)
       values ($1, 'Karta', 'json', 'specialist', 'server', jsonb_build_object('kind', 'rich_content', 'specialist_id', $2::text))
       returning id`,
      [conversationId, ASSISTANT_ID],
    )
  ).id;
});

afterAll(closeDb);

describe('rich content across accounts', () => {
  it('a super admin reads another account’s rich message through admin_rich_messages (plain RLS read does not)', async () => {
    const direct = await rest(admin.caller, 'GET', `messages?select=id&conversation_id=eq.${conversationId}&type=eq.json`);
    expect(direct.body).toEqual([]); // RLS unchanged: the admin's chat streams stay their own account's
    const all = await rpc(admin.caller, 'admin_rich_messages', { p_limit: 200 });
    expect(all.status).toBe(200);
    expect((all.body as { id: string }[]).map((r) => r.id)).toContain(richId);
    const one_ = await rpc(admin.caller, 'admin_rich_messages', { p_conversation_id: conversationId });
    expect(one_.body).toEqual([expect.objectContaining({ id: richId, conversation_id: conversationId, account_id: owner.accountId, type: 'json' })]);
  });

  it('a member of another account is refused by the function and sees nothing through REST', async () => {
    const attack = await rpc(other.caller, 'admin_rich_messages', { p_conversation_id: conversationId });
    expect(attack.status).toBe(403);
    expect(errorOf(attack).message).toBe('Super admin role required');
    const everything = await rpc(other.caller, 'admin_rich_messages', {});
    expect(everything.status).toBe(403);
    const direct = await rest(other.caller, 'GET', `messages?select=id&conversation_id=eq.${conversationId}`);
    expect(direct.body).toEqual([]);
  });

  it('even the owner cannot use it, and anon cannot execute it', async () => {
    expect((await rpc(owner.caller, 'admin_rich_messages', {})).status).toBe(403);
    const a = await rpc(anon, 'admin_rich_messages', {});
    expect([401, 403, 404]).toContain(a.status);
  });

  it('refuses an unbounded limit', async () => {
    const r = await rpc(admin.caller, 'admin_rich_messages', { p_limit: 100000 });
    expect(r.status).toBe(400);
  });
});
