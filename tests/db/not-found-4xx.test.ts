// Issue 36 N6 and the info row, through PostgREST as a member meets them: an id the caller cannot see
// (another account's conversation, a message of another conversation, an unknown specialist) is a 404
// with a clear message, never a 500; and a message longer than the app's 8,000 characters is a 400,
// however it is sent (the RPC the app uses, or a plain table insert that skips the composer).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createUser, errorOf, rest, rows, rpc, serverMessage, type TestUser } from './helpers.ts';

let member: TestUser;
let stranger: TestUser;
let strangerConv: string;
let ownConv: string;

beforeAll(async () => {
  member = await createUser('n6-member');
  stranger = await createUser('n6-stranger');
  strangerConv = await createConversation(stranger.accountId);
  ownConv = await createConversation(member.accountId);
});

afterAll(async () => {
  await closeDb();
});

function expectNotFound(res: { status: number; body: unknown }, message: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(errorOf(res)).toMatchObject({ code: 'P0002', message });
}

describe('issue 36 N6: an id the caller cannot see is a 404, never a 500', () => {
  it("mark_read on another account's conversation, or with a message of another conversation", async () => {
    const theirs = await serverMessage(strangerConv, 'specialist', 'tajné');
    expectNotFound(await rpc(member.caller, 'mark_read', { p_conversation_id: strangerConv, p_message_id: theirs.id }), 'Conversation not found');
    expectNotFound(await rpc(member.caller, 'mark_read', { p_conversation_id: randomUUID(), p_message_id: null }), 'Conversation not found');
    expectNotFound(await rpc(member.caller, 'mark_read', { p_conversation_id: ownConv, p_message_id: theirs.id }), 'Message not found in this conversation');
    // The same through a direct read_cursors upsert.
    const direct = await rest(member.caller, 'POST', 'read_cursors', { user_id: member.id, conversation_id: strangerConv, last_read_message_id: null });
    expectNotFound(direct, 'Conversation not found');
    expect(await rows('select 1 from public.read_cursors where conversation_id = $1', [strangerConv])).toEqual([]);
  });

  it('start_conversation with a specialist id that does not exist', async () => {
    expectNotFound(await rpc(member.caller, 'start_conversation', { p_specialist_id: randomUUID() }), 'Specialist not found');
  });

  it("a message insert into another account's conversation, by table insert and by send_message", async () => {
    const direct = await rest(member.caller, 'POST', 'messages', { conversation_id: strangerConv, direction: 'user', text: 'intruder' });
    expectNotFound(direct, 'Conversation not found');
    const unknown = await rest(member.caller, 'POST', 'messages', { conversation_id: randomUUID(), direction: 'user', text: 'intruder' });
    expectNotFound(unknown, 'Conversation not found');
    const viaRpc = await rpc(member.caller, 'send_message', { p_conversation_id: strangerConv, p_text: 'intruder', p_client_correlation_id: randomUUID() });
    expectNotFound(viaRpc, 'Conversation not found');
    expect(await rows('select 1 from public.messages where conversation_id = $1 and direction = $2', [strangerConv, 'user'])).toEqual([]);
  });
});

describe('issue 36 info row: the server keeps the 8,000-character message limit', () => {
  it('8,000 characters are sent; 8,001 are a 400 saying the limit, by RPC and by table insert', async () => {
    const ok = await rpc(member.caller, 'send_message', { p_conversation_id: ownConv, p_text: 'a'.repeat(8000), p_client_correlation_id: randomUUID() });
    expect(ok.status, JSON.stringify(ok.body).slice(0, 200)).toBe(200);
    for (const res of [
      await rpc(member.caller, 'send_message', { p_conversation_id: ownConv, p_text: 'b'.repeat(8001), p_client_correlation_id: randomUUID() }),
      await rest(member.caller, 'POST', 'messages', { conversation_id: ownConv, direction: 'user', text: 'c'.repeat(8001) }),
      await rest(member.caller, 'POST', 'messages', { conversation_id: ownConv, direction: 'user', text: '😀'.repeat(8001) }),
    ]) {
      expect(res.status).toBe(400);
      expect(errorOf(res)).toMatchObject({ code: '22001', message: 'Message is too long: at most 8000 characters' });
    }
    expect(await rows("select 1 from public.messages where conversation_id = $1 and char_length(text) > 8000", [ownConv])).toEqual([]);
  });

  it('server-written text (a specialist reply through Chatwoot or the AI) keeps the 10,000-character room', async () => {
    const long = await serverMessage(ownConv, 'specialist', 'd'.repeat(9000));
    expect(long.id).toBeTruthy();
  });
});
