// Issue 37 (user item 12, admin item 1): migration 20261129130000. The time a message was written
// travels in payload.written_at and the server keeps it within bounds (never after it received the
// message, never before the conversation); a message support wrote while impersonating carries
// payload.sent_by_support, which only the server sets. Each forgery is performed through PostgREST as
// the attacker and seen refused or corrected.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createUser, errorOf, ok, one, rest, rpc, type TestUser } from './helpers.ts';

interface Row {
  id: string;
  created_at: string;
  payload: Record<string, unknown> | null;
}

let admin: TestUser;
let member: TestUser;
let conv: string;
let convCreated: number;

const send = (u: TestUser, payload: Record<string, unknown> | null, text = 'ahoj') =>
  rpc(u.caller, 'send_message', { p_conversation_id: conv, p_text: text, p_client_correlation_id: randomUUID(), p_payload: payload });

beforeAll(async () => {
  admin = await createUser('walk-admin', { superAdmin: true });
  member = await createUser('walk-member');
  conv = await createConversation(member.accountId);
  const c = await one<{ created_at: Date }>('select created_at from public.conversations where id = $1', [conv]);
  convCreated = c.created_at.getTime();
});
afterAll(closeDb);

describe('R1.14 written time (issue 37 user item 12)', () => {
  it('R1.14 a time written offline a minute ago is kept, on the server clock in UTC', async () => {
    // The conversation is new: move its creation back so "a minute ago" is after it.
    await one('update public.conversations set created_at = now() - interval \'1 hour\' where id = $1 returning id', [conv]);
    const written = new Date(Date.now() - 60_000);
    const row = ok<Row>(await send(member, { written_at: written.toISOString().replace('Z', '+00:00') }));
    expect(row.payload?.written_at).toBe(written.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z'));
    expect(Date.parse(row.created_at)).toBeGreaterThan(written.getTime());
  });

  it('R1.14 attack: a far-future written time is clamped to the time the server received it', async () => {
    const row = ok<Row>(await send(member, { written_at: '2999-01-01T00:00:00Z' }));
    expect(Date.parse(String(row.payload?.written_at))).toBe(Date.parse(row.created_at));
  });

  it('R1.14 attack: a backdated written time is clamped to the conversation\'s creation', async () => {
    const c = await one<{ created_at: Date }>('select created_at from public.conversations where id = $1', [conv]);
    const row = ok<Row>(await send(member, { written_at: '2001-09-09T01:46:40Z' }));
    expect(Date.parse(String(row.payload?.written_at))).toBe(c.created_at.getTime());
    expect(c.created_at.getTime()).toBeLessThan(convCreated);
  });

  it('R1.14 a written time without a zone, or not a time, is refused with 400 and nothing is stored', async () => {
    for (const bad of ['2026-11-28T09:30:00', 'yesterday', 'infinity', 12345, { at: 1 }]) {
      const res = await send(member, { written_at: bad }, `zlé ${JSON.stringify(bad)}`);
      expect(res.status).toBe(400);
      expect(errorOf(res).message).toMatch(/written_at must be an ISO 8601 time/);
    }
    const stored = await one<{ n: string }>("select count(*) as n from public.messages where conversation_id = $1 and text like 'zlé %'", [conv]);
    expect(stored.n).toBe('0');
  });

  it('R1.14 a direct PostgREST insert is held to the same bounds', async () => {
    const res = await rest(member.caller, 'POST', 'messages', { conversation_id: conv, direction: 'user', text: 'priamo', payload: { written_at: '2999-01-01T00:00:00Z' } });
    const [row] = ok<Row[]>(res);
    expect(Date.parse(String(row?.payload?.written_at))).toBe(Date.parse(row?.created_at ?? ''));
  });
});

describe('support attribution while impersonating (issue 37 admin item 1)', () => {
  it('a message support writes while impersonating is marked sent_by_support, and audited with the mark', async () => {
    ok(await rpc(admin.caller, 'start_impersonation', { p_account_id: member.accountId }));
    try {
      const row = ok<Row>(await send(admin, null, 'Píše podpora'));
      expect(row.payload?.sent_by_support).toBe(true);
      const audit = await one<{ details: { new: { payload: Record<string, unknown> } } }>(
        "select details from public.audit_log where actor_user_id = $1 and action = 'impersonated.insert' and row_id = $2",
        [admin.id, row.id],
      );
      expect(audit.details.new.payload.sent_by_support).toBe(true);
      // Attack by support: trying to pass as the customer by sending the flag false.
      const hidden = ok<Row>(await send(admin, { sent_by_support: false }, 'Skrytá podpora'));
      expect(hidden.payload?.sent_by_support).toBe(true);
      // The member sees the mark in their own pull.
      const pulled = ok<{ messages: Row[] }>(await rpc(member.caller, 'sync_pull', { p_since: 0, p_limit: 1000 }));
      expect(pulled.messages.find((m) => m.id === row.id)?.payload?.sent_by_support).toBe(true);
    } finally {
      ok(await rpc(admin.caller, 'stop_impersonation'));
    }
  });

  it('attack: a member cannot pose as support (the flag is dropped, by RPC and by direct insert)', async () => {
    const viaRpc = ok<Row>(await send(member, { sent_by_support: true }, 'Ja som podpora'));
    expect(viaRpc.payload?.sent_by_support).toBeUndefined();
    const [direct] = ok<Row[]>(await rest(member.caller, 'POST', 'messages', { conversation_id: conv, direction: 'user', text: 'Aj ja', payload: { sent_by_support: true } }));
    expect(direct?.payload?.sent_by_support).toBeUndefined();
  });
});
