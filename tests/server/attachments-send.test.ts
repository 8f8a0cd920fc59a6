// send_message with payload.attachments (issue 38, migration 20261128100000): a message whose
// attachments are not all stored objects in the caller's account folder of that conversation is
// never created. Every attack goes through unmodified supabase-js against the real stack and is
// refused with 400 and a message naming the rule; nothing is inserted.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { member, PNG, PDF, type Member } from './storage-helpers.ts';

const stack = inject('stack');
let alice: Member;
let bob: Member;
/** A second conversation of alice's account. */
let aliceOther: string;

beforeAll(async () => {
  [alice, bob] = await Promise.all([member(stack, 'att-send-a'), member(stack, 'att-send-b')]);
  const { data: specialists } = await alice.client.from('specialists').select('id').limit(5);
  for (const s of specialists ?? []) {
    const r = await alice.client.rpc('start_conversation', { p_specialist_id: s.id });
    const id = (r.data as { conversation_id?: string } | null)?.conversation_id;
    if (id && id !== alice.conversationId) {
      aliceOther = id;
      break;
    }
  }
});

interface Stored {
  id: string;
  path: string;
}

async function upload(m: Member, conversationId: string, name: string, bytes: Buffer, type: string): Promise<Stored> {
  const id = randomUUID();
  const path = `${m.accountId}/${conversationId}/${id}/${name}`;
  const { error } = await m.client.storage.from('attachments').upload(path, bytes, { contentType: type });
  expect(error).toBeNull();
  return { id, path };
}

function entry(s: Stored, extra: Record<string, unknown> = {}) {
  return { id: s.id, path: s.path, name: s.path.split('/').pop(), file_type: 'image', data_url: 'https://evil.example/x.png', file_size: 1, ...extra };
}

async function send(m: Member, conversationId: string, attachments: unknown, text = '') {
  const correlationId = randomUUID();
  const r = await m.client.rpc('send_message', {
    p_conversation_id: conversationId,
    p_text: text,
    p_client_correlation_id: correlationId,
    p_payload: { attachments },
  });
  return { ...r, correlationId };
}

async function stored(m: Member, correlationId: string): Promise<number> {
  const { count } = await m.client.from('messages').select('id', { count: 'exact', head: true }).eq('client_correlation_id', correlationId);
  return count ?? 0;
}

describe('send_message with attachments', () => {
  it('accepts stored objects of the caller: the server rebuilds each entry (size and type from storage, storage: urls)', async () => {
    const photo = await upload(alice, alice.conversationId, 'fotka.png', PNG, 'image/png');
    const doc = await upload(alice, alice.conversationId, 'zmluva.pdf', PDF, 'application/pdf');
    const r = await send(alice, alice.conversationId, [entry(photo, { width: 1, height: 1 }), entry(doc, { file_type: 'image', file_size: 999 })]);
    expect(r.error).toBeNull();
    const row = r.data as { text: string; payload: { attachments: Record<string, unknown>[] } };
    expect(row.text).toBe('');
    expect(row.payload.attachments).toEqual([
      expect.objectContaining({ id: photo.id, path: photo.path, file_type: 'image', file_size: PNG.length, width: 1, height: 1, data_url: `storage:attachments/${photo.path}`, name: 'fotka.png' }),
      expect.objectContaining({ id: doc.id, path: doc.path, file_type: 'file', file_size: PDF.length, content_type: 'application/pdf', data_url: `storage:attachments/${doc.path}` }),
    ]);
  });

  it('refuses a forged path in another account\'s folder (400), nothing stored', async () => {
    const bobs = await upload(bob, bob.conversationId, 'tajne.png', PNG, 'image/png');
    const r = await send(alice, alice.conversationId, [entry(bobs)]);
    expect(r.status).toBe(400);
    expect(r.error?.message).toMatch(/Attachment path must be \{account_id\}\/\{conversation_id\}/);
    expect(await stored(alice, r.correlationId)).toBe(0);
    // Bob's own object under alice's account prefix: still refused (it is not stored there).
    const forged = { id: bobs.id, path: `${alice.accountId}/${alice.conversationId}/${bobs.id}/tajne.png` };
    const r2 = await send(alice, alice.conversationId, [entry(forged)]);
    expect(r2.status).toBe(400);
    expect(r2.error?.message).toMatch(/Attachment is not uploaded/);
  });

  it('refuses a path that was never uploaded (400), nothing stored', async () => {
    const id = randomUUID();
    const r = await send(alice, alice.conversationId, [entry({ id, path: `${alice.accountId}/${alice.conversationId}/${id}/nic.png` })], 'pozri');
    expect(r.status).toBe(400);
    expect(r.error?.message).toMatch(/Attachment is not uploaded/);
    expect(await stored(alice, r.correlationId)).toBe(0);
  });

  it('refuses an object of another conversation of the same account (400), nothing stored', async () => {
    expect(aliceOther).toBeTruthy();
    const elsewhere = await upload(alice, aliceOther, 'ine.png', PNG, 'image/png');
    const r = await send(alice, alice.conversationId, [entry(elsewhere)]);
    expect(r.status).toBe(400);
    expect(r.error?.message).toMatch(/of this conversation in your account/);
    expect(await stored(alice, r.correlationId)).toBe(0);
  });

  it('refuses the same forgeries on a direct insert into messages (the rule is on the table, not only the RPC)', async () => {
    const bobs = await upload(bob, bob.conversationId, 'tajne2.png', PNG, 'image/png');
    const r = await alice.client.from('messages').insert({
      conversation_id: alice.conversationId,
      text: 'x',
      direction: 'user',
      client_correlation_id: randomUUID(),
      payload: { attachments: [entry(bobs)] },
    });
    expect(r.status).toBe(400);
    expect(r.error?.message).toMatch(/Attachment path must be/);
  });

  it('refuses malformed lists: not an array, a non-UUID id, more than 10, an empty caption without attachments', async () => {
    expect((await send(alice, alice.conversationId, 'x', 'a')).status).toBe(400);
    expect((await send(alice, alice.conversationId, [{ id: 'nie-uuid', path: 'a/b/c/d' }], 'a')).status).toBe(400);
    const many = Array.from({ length: 11 }, () => ({ id: randomUUID(), path: 'x' }));
    const tooMany = await send(alice, alice.conversationId, many, 'a');
    expect(tooMany.status).toBe(400);
    expect(tooMany.error?.message).toMatch(/At most 10 attachments/);
    const empty = await send(alice, alice.conversationId, [], '  ');
    expect(empty.status).toBe(400);
    expect(empty.error?.message).toBe('Message text is empty');
  });
});
