// R17.4/R17.6 against the real stack (issue 35): the device's IndexedDB connection is lost while a
// command writes (WebKit's 'Connection to Indexed Database server lost'; the kit's loseConnection on
// the device's fake-indexeddb), the engine talks to the real PostgREST and PostgreSQL with real
// migrations through unmodified supabase-js, and the server ends with each effect exactly once. The
// FakeServer tests (tests/unit/sync/storage-faults.test.ts, storage-loss-commands.test.ts) cover every
// command; these are the ones whose effect the server keeps.
import type { Table } from 'dexie';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { SyncEngine } from '../../sync/engine.ts';
import { loseConnection } from '../../sync/testing/idb-faults.ts';
import type { TestStack } from '../helpers/stack.ts';
import { createConversation, specialistSays, testSpecialists } from './helpers/server-db.ts';
import { Device, newUser, serverMessages } from './helpers/real-device.ts';
import { withRealStack } from './helpers/real-stack.ts';
import { waitFor } from '../unit/sync/helpers/wait.ts';

let stack: TestStack;
let db: pg.Pool;
const devices: Device[] = [];

withRealStack(devices, (s, p) => ((stack = s), (db = p)));

/** Loses the engine's connection the first time `table` gets a new row; returns how often it was hit. */
function cutOnce(engine: SyncEngine, table: Table): { hits: () => number; end: () => void } {
  let hits = 0;
  const cut = () => {
    if (hits++ === 0) loseConnection(engine.db.backendDB());
  };
  table.hook('creating', cut);
  return { hits: () => hits, end: () => table.hook('creating').unsubscribe(cut) };
}

async function started(): Promise<{ d: Device; engine: SyncEngine; conv: string; userId: string }> {
  const { humans } = await testSpecialists(db);
  const user = await newUser(stack, db, 'r17');
  const conv = await createConversation(db, user.accountId, humans[0]!);
  await specialistSays(db, conv, 'Dobrý deň');
  const d = new Device(stack);
  devices.push(d);
  await d.signIn(user.email);
  const engine = await d.start(user.id, { accountId: user.accountId });
  await waitFor(async () => (await engine.db.messages.count()) === 1, 'first pull', 8000);
  return { d, engine, conv, userId: user.id };
}

describe('R17 the device storage failing, against the real stack', () => {
  it('R17.4 a send whose write the lost connection cut is written again under its id and stored once on the server', async () => {
    const { d, engine, conv } = await started();
    d.setOnline(false);
    const cut = cutOnce(engine, engine.db.messages);
    const h = await engine.commands.sendMessage({ conversationId: conv, text: 'Počas straty spojenia' });
    cut.end();
    expect(cut.hits()).toBeGreaterThan(0);
    expect(h).not.toBeNull();
    d.setOnline(true);
    await waitFor(async () => (await engine.db.outbox.count()) === 0, 'outbox drained', 8000);
    expect((await serverMessages(db, conv)).filter((m) => m.text === 'Počas straty spojenia')).toHaveLength(1);
    expect((await engine.db.messages.get(h!.key))?.state).toBe('sent');
  });

  it('R17.6 markRead and archive whose writes the lost connection cut reach the server once', async () => {
    const { d, engine, conv, userId } = await started();
    const reply = (await serverMessages(db, conv))[0]!;
    d.setOnline(false);
    const read = cutOnce(engine, engine.db.outbox);
    expect(await engine.commands.markRead(conv, reply.id)).toBe(true);
    read.end();
    const archive = cutOnce(engine, engine.db.outbox);
    expect(await engine.commands.archive(conv)).toBe(true);
    archive.end();
    expect(read.hits() + archive.hits()).toBeGreaterThan(1);
    expect(await engine.db.outbox.count()).toBe(2);
    d.setOnline(true);
    await waitFor(async () => (await engine.db.outbox.count()) === 0, 'outbox drained', 8000);
    const cursor = await db.query<{ id: string }>('select last_read_message_id as id from public.read_cursors where user_id = $1 and conversation_id = $2', [userId, conv]);
    expect(cursor.rows.map((r) => r.id)).toEqual([reply.id]);
    const c = await db.query<{ archived_at: Date | null }>('select archived_at from public.conversations where id = $1', [conv]);
    expect(c.rows[0]!.archived_at).not.toBeNull();
  });
});
