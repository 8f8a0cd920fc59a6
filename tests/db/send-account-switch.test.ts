// send_message while a super admin's account switches (issue 18, R9.8; migration 20261124001000; the
// hostile fuzz's seed 1). The server switches at start_impersonation, the admin's sync engine a
// moment later; a send of the old account retried in between must neither fail for good nor be
// judged in the wrong account — and what this opens must open nothing for anyone else.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createUser, errorOf, ok, rows, rpc, type TestUser } from './helpers.ts';

interface Sent {
  id: string;
  conversation_id: string;
  account_id: string;
  text: string;
}

let admin: TestUser;
let member: TestUser;
let stranger: TestUser;
let ownConv: string;
let memberConv: string;

const countOf = async (conv: string, correlation: string) =>
  (await rows('select 1 from public.messages where conversation_id = $1 and client_correlation_id = $2', [conv, correlation])).length;

beforeAll(async () => {
  admin = await createUser('switch-admin', { superAdmin: true });
  member = await createUser('switch-member');
  stranger = await createUser('switch-stranger');
  ownConv = await createConversation(admin.accountId);
  memberConv = await createConversation(member.accountId);
});
afterAll(async () => {
  await rpc(admin.caller, 'stop_impersonation');
  await closeDb();
});

describe('R9.8 on the server: a send of the account the admin just left', () => {
  it('a repeat of a send stored before the switch answers with the stored row, not 404', async () => {
    const correlation = randomUUID();
    const first = ok<Sent>(await rpc(admin.caller, 'send_message', { p_conversation_id: ownConv, p_text: 'pred prepnutím', p_client_correlation_id: correlation }));
    // The reply of that first attempt was lost; the admin starts impersonating; the engine retries.
    ok(await rpc(admin.caller, 'start_impersonation', { p_account_id: member.accountId }));
    const retry = await rpc(admin.caller, 'send_message', { p_conversation_id: ownConv, p_text: 'pred prepnutím', p_client_correlation_id: correlation });
    expect(retry.status).toBe(200);
    expect(ok<Sent>(retry)).toMatchObject({ id: first.id, account_id: admin.accountId });
    expect(await countOf(ownConv, correlation)).toBe(1);
    ok(await rpc(admin.caller, 'stop_impersonation'));
  });

  it('a first attempt of the old account answers 409 (wait), stores nothing, and goes through back there', async () => {
    const correlation = randomUUID();
    ok(await rpc(admin.caller, 'start_impersonation', { p_account_id: member.accountId }));
    const inWindow = await rpc(admin.caller, 'send_message', { p_conversation_id: ownConv, p_text: 'v okne', p_client_correlation_id: correlation });
    expect(inWindow.status).toBe(409);
    expect(errorOf(inWindow).message).toBe('Conversation is in another account');
    // It names the account, so the engine's entry learns where it waits (R9.8).
    expect((inWindow.body as { details?: unknown }).details).toBe(admin.accountId);
    expect(await countOf(ownConv, correlation)).toBe(0);
    ok(await rpc(admin.caller, 'stop_impersonation'));
    const back = ok<Sent>(await rpc(admin.caller, 'send_message', { p_conversation_id: ownConv, p_text: 'v okne', p_client_correlation_id: correlation }));
    expect(back.account_id).toBe(admin.accountId);
    expect(await countOf(ownConv, correlation)).toBe(1);
  });

  it('attack: a member still meets 404 for another account, with or without a correlation id someone used there', async () => {
    // The stranger learns neither that the conversation exists nor the member's message.
    const correlation = randomUUID();
    ok(await rpc(member.caller, 'send_message', { p_conversation_id: memberConv, p_text: 'tajné', p_client_correlation_id: correlation }));
    for (const id of [correlation, randomUUID()]) {
      const res = await rpc(stranger.caller, 'send_message', { p_conversation_id: memberConv, p_text: 'cudzí', p_client_correlation_id: id });
      expect(res.status).toBe(404);
      expect(errorOf(res)).toMatchObject({ code: 'P0002', message: 'Conversation not found' });
      expect(JSON.stringify(res.body)).not.toContain('tajné');
    }
    expect(await countOf(memberConv, correlation)).toBe(1);
  });

  it("attack: the admin's cross-account lookup finds only the admin's own messages", async () => {
    // The member's message in the member's conversation, its correlation id known to the admin:
    // acting in its own account, the admin gets the 409 (the conversation exists), never the row.
    const correlation = randomUUID();
    ok(await rpc(member.caller, 'send_message', { p_conversation_id: memberConv, p_text: 'členova', p_client_correlation_id: correlation }));
    const res = await rpc(admin.caller, 'send_message', { p_conversation_id: memberConv, p_text: 'admin', p_client_correlation_id: correlation });
    expect(res.status).toBe(409);
    expect(JSON.stringify(res.body)).not.toContain('členova');
    expect(await countOf(memberConv, correlation)).toBe(1);
  });

  it('the helpers are not callable by anon and not exposed through the API', async () => {
    const anon = await rpc({ kind: 'anon' }, 'own_sent_message', { p_conversation_id: memberConv, p_client_correlation_id: randomUUID() });
    expect(anon.status).toBeGreaterThanOrEqual(400);
    const viaApi = await rpc(member.caller, 'conversation_account_for_admin', { p_conversation_id: memberConv });
    expect(viaApi.status).toBe(404);
  });
});
