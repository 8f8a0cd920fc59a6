// R9.8 and R9.9 (issue 18, rows 8 and 9) against a real stack: a super admin signed in through the
// auth server impersonates customers with the real start_impersonation/stop_impersonation RPCs; the
// server's current_account_id() follows, for every device of that admin.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { unsentCount } from '../../sync/queries.ts';
import type { TestStack } from '../helpers/stack.ts';
import { createConversation, specialistSays, testSpecialists } from './helpers/server-db.ts';
import { Device, localMessages, newUser, serverMessages, sleep, type RealUser } from './helpers/real-device.ts';
import { withRealStack } from './helpers/real-stack.ts';
import { waitFor } from '../unit/sync/helpers/wait.ts';

let stack: TestStack;
let db: pg.Pool;
const devices: Device[] = [];

withRealStack(devices, (s, p) => ((stack = s), (db = p)));

async function superAdmin(): Promise<RealUser> {
  const admin = await newUser(stack, db, 'admin');
  await db.query(`insert into public.app_users (user_id, role) values ($1, 'super_admin')`, [admin.id]);
  return admin;
}

async function device(email: string): Promise<Device> {
  const d = new Device(stack);
  devices.push(d);
  await d.signIn(email);
  return d;
}

async function impersonate(d: Device, accountId: string | null): Promise<void> {
  const { error } = accountId === null ? await d.supabase.rpc('stop_impersonation') : await d.supabase.rpc('start_impersonation', { p_account_id: accountId });
  expect(error).toBeNull();
}

async function serverCount(conversationId: string, text: string): Promise<number> {
  const r = await db.query('select 1 from public.messages where conversation_id = $1 and text = $2', [conversationId, text]);
  return r.rowCount ?? 0;
}

describe('R9.8/R9.9 impersonation under the engine (issue 18, rows 8 and 9)', () => {
  it('R9.8 a super admin with queued sends starts and stops impersonation: entries carry their account, are never dropped, hidden or sent in the wrong account; unsentCount stays right', async () => {
    const { humans } = await testSpecialists(db);
    const admin = await superAdmin();
    const customer = await newUser(stack, db, 'customer');
    const own = await createConversation(db, admin.accountId, humans[0]!);
    const theirs = await createConversation(db, customer.accountId, humans[1]!);
    const d = await device(admin.email);
    const phone = await device(admin.email); // where the admin clicks "impersonate"

    let engine = await d.start(admin.id, { accountId: admin.accountId });
    await waitFor(async () => (await engine.db.conversations.count()) === 1, 'own conversation', 8000);
    d.setOnline(false);
    await engine.commands.sendMessage({ conversationId: own, text: 'vlastný 1' });
    await engine.commands.sendMessage({ conversationId: own, text: 'vlastný 2' });
    for (const e of await engine.db.outbox.toArray()) expect(e.op).toMatchObject({ kind: 'send', accountId: admin.accountId });

    // Impersonation starts (the app starts the engine again in the customer's account).
    await impersonate(phone, customer.accountId);
    await d.stop();
    engine = await d.start(admin.id, { accountId: customer.accountId });
    expect(await unsentCount(engine.db)).toBe(2); // kept, not hidden
    d.setOnline(true);
    await waitFor(async () => (await engine.db.conversations.get(theirs)) !== undefined, "the customer's conversation", 8000);
    await engine.commands.sendMessage({ conversationId: theirs, text: 'za zákazníka' });
    await waitFor(async () => (await serverCount(theirs, 'za zákazníka')) === 1, 'sent in the customer account', 3000);
    await waitFor(async () => (await unsentCount(engine.db)) === 2, 'only the own ones unsent', 3000);
    await sleep(800); // several flushes and pulls while acting in the customer's account
    expect(await serverCount(own, 'vlastný 1')).toBe(0);
    const waiting = (await engine.db.messages.toArray()).filter((m) => m.text.startsWith('vlastný'));
    expect(waiting.map((m) => m.state)).toEqual(['sending', 'sending']); // not failed as 'not found' in the wrong account
    expect(await engine.db.outbox.count()).toBe(2);
    expect((await engine.db.conversations.toArray()).map((c) => c.id)).toEqual([theirs]);

    // Impersonation stops: back in the own account, the queued sends go out, each once.
    await impersonate(phone, null);
    await d.stop();
    engine = await d.start(admin.id, { accountId: admin.accountId });
    await waitFor(async () => (await engine.db.outbox.count()) === 0, 'own sends drained', 3000);
    expect([await serverCount(own, 'vlastný 1'), await serverCount(own, 'vlastný 2'), await serverCount(own, 'za zákazníka')]).toEqual([1, 1, 0]);
    expect(await unsentCount(engine.db)).toBe(0);
    await waitFor(
      async () => JSON.stringify(await localMessages(engine, own)) === JSON.stringify(await serverMessages(db, own)),
      'own conversation equals server',
      3000,
    );
  });

  it('R9.9 impersonation switched to another account from another device: a pull never takes a cursor from the other account; no row is skipped', async () => {
    const { humans } = await testSpecialists(db);
    const admin = await superAdmin();
    const x = await newUser(stack, db, 'x');
    const y = await newUser(stack, db, 'y');
    const convX = await createConversation(db, x.accountId, humans[0]!);
    const convY = await createConversation(db, y.accountId, humans[1]!);
    // Y's counter runs far ahead of X's: taking Y's cursor would skip X's rows for good.
    for (let i = 0; i < 80; i++) await specialistSays(db, convY, `y ${i}`);
    const d = await device(admin.email);
    const other = await device(admin.email);
    await impersonate(d, x.accountId);
    const engine = await d.start(admin.id, { accountId: x.accountId });
    await waitFor(async () => (await engine.db.conversations.get(convX)) !== undefined, "X's conversation", 8000);

    await impersonate(other, y.accountId); // from the other device: d's requests now answer for Y
    for (let i = 0; i < 37; i++) await specialistSays(db, convX, `x ${i}`);
    await sleep(1500); // pulls meet Y's feed meanwhile
    const feed = await engine.db.meta.get('feed');
    const xSeq = Number((await db.query<{ change_seq: string }>('select change_seq from public.accounts where id = $1', [x.accountId])).rows[0]!.change_seq);
    expect(feed?.key === 'feed' && feed.cursor).toBeLessThanOrEqual(xSeq);
    expect(await engine.db.conversations.get(convY)).toBeUndefined();
    expect((await engine.db.messages.toArray()).filter((m) => m.text.startsWith('y '))).toEqual([]);

    await impersonate(other, x.accountId); // back to X: every X row written meanwhile arrives
    await waitFor(
      async () => JSON.stringify(await localMessages(engine, convX)) === JSON.stringify(await serverMessages(db, convX)),
      'X equals the server',
      5000,
    );
    expect((await localMessages(engine, convX)).length).toBe(37);

    // An account with no rows at all: its pages are empty and its counter is below X's cursor, which
    // would pass for a reset database (R5.7). The page's account_id tells; nothing of X is dropped.
    const z = await newUser(stack, db, 'z');
    await impersonate(other, z.accountId);
    await sleep(1500);
    expect(await engine.db.conversations.get(convX)).toBeDefined();
    expect((await localMessages(engine, convX)).length).toBe(37);
    await impersonate(other, x.accountId);
  });
});
