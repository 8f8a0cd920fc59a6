// The rules the send path's folded triggers still enforce (migration 20261130150000: t65, t70 audit
// and push, t90 folded into messages' t60_after_insert; t20_ai_silenced's INSERT part into t15; the
// conversation's t95 broadcast not queued for the update a new message makes). The other parts have
// their own tests: read on reply and push (tests/server/push-*.test.ts), the audit of an impersonated
// send (impersonation.test.ts), the AI refused in a human's conversation (conversation-owner.test.ts),
// one broadcast a send (tests/server/realtime-db-broadcast.test.ts).
import { afterAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createUser, db, ok, one, rest, rpc, rows } from './helpers.ts';
import { randomUUID } from 'node:crypto';

afterAll(closeDb);

const announced = async (accountId: string) =>
  (
    await rows<{ seq: string }>(
      `select payload->>'change_seq' as seq from realtime.messages where topic = $1 and event = 'changed' order by inserted_at, (payload->>'change_seq')::bigint`,
      [`account:${accountId}`],
    )
  ).map((r) => Number(r.seq));

describe('send path triggers (20261130150000)', () => {
  it('a message row stored without a change number is refused (the change feed numbers every row)', async () => {
    const u = await createUser();
    const conv = await createConversation(u.accountId);
    const c = await db().connect();
    try {
      await c.query('begin');
      // Only the numbering trigger off, in this transaction: the row keeps the number it was given.
      await c.query('alter table public.messages disable trigger t50_change_seq');
      await expect(
        c.query(`insert into public.messages (conversation_id, account_id, direction, text, change_seq) values ($1, $2, 'system', 'x', 0)`, [conv, u.accountId]),
      ).rejects.toMatchObject({ code: '23514', message: 'Row of public.messages was stored without a change number' });
    } finally {
      await c.query('rollback');
      c.release();
    }
  });

  it("R18.1: a conversation change without a message (archive) is announced on its own; a send's conversation update is announced by its message's broadcast, once", async () => {
    const u = await createUser();
    const conv = ok<{ conversation_id: string }>(await rpc(u.caller, 'ensure_first_conversation')).conversation_id;
    const before = (await announced(u.accountId)).length;

    const patched = await rest(u.caller, 'PATCH', `conversations?id=eq.${conv}`, { archived_at: new Date().toISOString() });
    expect(patched.status).toBe(200);
    const archived = await one<{ s: string }>('select change_seq as s from public.conversations where id = $1', [conv]);
    expect((await announced(u.accountId)).slice(before)).toEqual([Number(archived.s)]);

    ok(await rpc(u.caller, 'send_message', { p_conversation_id: conv, p_text: 'ahoj', p_client_correlation_id: randomUUID() }));
    const sent = await one<{ s: string }>('select change_seq as s from public.conversations where id = $1', [conv]);
    expect(Number(sent.s)).toBeGreaterThan(Number(archived.s));
    // The first conversation is the AI assistant's: its answer may be announced by now too (a clean-clone
    // run saw it); only what the archive and the send themselves announced is compared.
    const upToSend = (await announced(u.accountId)).slice(before).filter((n) => n <= Number(sent.s));
    expect(upToSend).toEqual([Number(archived.s), Number(sent.s)]);
  });
});
