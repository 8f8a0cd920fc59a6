// R1.14 (issue 37 user item 12): a message written offline and delivered later carries the time it
// was typed (payload.written_at) to the server, which keeps it; every device then shows that time,
// while the order stays the server's (created_at). Real stack, real engine on fake-indexeddb.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { msFromTimestamp } from '../../sync/model/timestamps.ts';
import type { TestStack } from '../helpers/stack.ts';
import { createConversation, testSpecialists } from './helpers/server-db.ts';
import { Device, newUser, sleep } from './helpers/real-device.ts';
import { withRealStack } from './helpers/real-stack.ts';
import { waitFor } from '../unit/sync/helpers/wait.ts';

let stack: TestStack;
let db: pg.Pool;
const devices: Device[] = [];

withRealStack(devices, (s, p) => ((stack = s), (db = p)));

describe('R1.14 the time a message was written', () => {
  it('R1.14 a message typed offline and sent later keeps the time it was typed, on the server and on another device of the user', async () => {
    const { humans } = await testSpecialists(db);
    const user = await newUser(stack, db, 'written');
    const conv = await createConversation(db, user.accountId, humans[0]!);
    const phone = new Device(stack);
    const laptop = new Device(stack);
    devices.push(phone, laptop);
    await phone.signIn(user.email);
    await laptop.signIn(user.email);
    const engine = await phone.start(user.id, { accountId: user.accountId });
    await waitFor(async () => (await engine.db.conversations.count()) === 1, 'first pull', 8000);

    phone.setOnline(false);
    const typedAt = Date.now();
    await engine.commands.sendMessage({ conversationId: conv, text: 'napísané offline' });
    // The scenario itself: the message stays on the phone a while before the network returns.
    await sleep(1500);
    phone.setOnline(true);

    const row = await waitFor(async () => {
      const r = await db.query<{ created_at: Date; payload: { written_at?: string } }>(
        "select created_at, payload from public.messages where conversation_id = $1 and text = 'napísané offline'",
        [conv],
      );
      return r.rows[0];
    }, 'delivered', 5000);
    const written = Date.parse(row.payload.written_at ?? '');
    expect(Math.abs(written - typedAt)).toBeLessThan(500);
    expect(row.created_at.getTime() - written).toBeGreaterThanOrEqual(1000);

    // The other device learns the written time with the row; its order key is still the server's.
    const other = await laptop.start(user.id, { accountId: user.accountId });
    const seen = await waitFor(async () => (await other.db.messages.toArray()).find((m) => m.text === 'napísané offline' && m.serverId), 'on the laptop', 8000);
    expect(seen.payload?.written_at).toBe(row.payload.written_at);
    expect(msFromTimestamp(seen.createdAt)).toBe(row.created_at.getTime());
  });
});
