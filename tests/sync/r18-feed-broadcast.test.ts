// R18.4: the engine's realtime transport joins the private `account:<id>` channel of Broadcast from the
// database on the real local stack (unmodified supabase-js), hands on the feed numbers of its own
// account, and a refused private join shows as an error (the machine then polls, R6.3), never silence.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { createSupabaseRealtimeTransport } from '../../sync/transports/supabase-realtime.ts';
import type { Transport, TransportEvent, TransportStatus } from '../../sync/transports/transport.ts';
import { waitFor } from '../../sync/testing/index.ts';
import type { ProvidedStack } from '../helpers/global-stack.ts';
import { createAccount, createConversation, pool, specialistSays } from './helpers/server-db.ts';

let stack: ProvidedStack;
let db: pg.Pool;
const open: { t: Transport; s: SupabaseClient }[] = [];

beforeAll(() => {
  stack = inject('stack');
  db = pool(stack.databaseUrl);
});
afterEach(async () => {
  for (const { t, s } of open.splice(0)) {
    await t.close();
    await s.realtime.disconnect();
  }
});
afterAll(async () => {
  await db.end();
});

function device(token: string, accountId: string) {
  const s = createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
    realtime: { transport: WebSocket as never },
  });
  void s.realtime.setAuth(token);
  const t = createSupabaseRealtimeTransport({ supabase: s, accountId, topic: `sync:${accountId}:r18`, feedBroadcast: true });
  open.push({ t, s });
  const events: TransportEvent[] = [];
  const statuses: { status: TransportStatus; detail?: string }[] = [];
  t.subscribe({ onEvent: (e) => events.push(e), onStatus: (status, detail) => statuses.push({ status, ...(detail ? { detail } : {}) }) });
  return { events, statuses };
}

describe('R18.4 the feed broadcast on the engine transport', () => {
  it("R18.4 a specialist's reply reaches the account's device as its feed number on the private account channel", async () => {
    const a = await createAccount(db, stack.jwtSecret, 1, 'r18');
    const conv = await createConversation(db, a.id, a.humans[0]!);
    const d = device(a.users[0]!.token, a.id);
    await waitFor(() => d.statuses.some((s) => s.status === 'connected'), 'both channels joined');
    const id = await specialistSays(db, conv, 'Dobrý deň');
    const seq = (await db.query<{ change_seq: string }>('select change_seq from public.messages where id = $1', [id])).rows[0]!.change_seq;
    // (the conversation's own broadcast may still arrive after the join: look for the reply's number)
    const feed = await waitFor(() => d.events.find((e) => e.kind === 'feed' && e.changeSeq === Number(seq)), 'the feed broadcast');
    expect(feed).toEqual({ kind: 'feed', accountId: a.id, changeSeq: Number(seq) });
    expect(d.events.every((e) => e.kind !== 'feed' || e.accountId === a.id)).toBe(true);
  });

  it("R18.4 a device joining another account's feed is refused and says so (error status), it is not left deaf", async () => {
    const a = await createAccount(db, stack.jwtSecret, 1, 'r18');
    const b = await createAccount(db, stack.jwtSecret, 1, 'r18');
    const d = device(b.users[0]!.token, a.id);
    const err = await waitFor(() => d.statuses.find((s) => s.status === 'error'), 'the refusal');
    expect(err.detail).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: account:${a.id}`);
    expect(d.statuses.some((s) => s.status === 'connected')).toBe(false);
  });
});
