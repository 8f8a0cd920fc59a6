// Chatwoot down (a closed port): a member's send into a Chatwoot-carried conversation is answered 5xx
// (transient, so the sync outbox retries it, sync/SPEC.md R6.4); once Chatwoot is back the same send
// (same correlation id) is stored once and reaches Chatwoot once. Chatwoot slow: chatwoot-slow.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../supabase/local/free-port.ts';
import { SEEDED, SPECIALIST, call, messagesOf, signIn, sql, startChatwootWorld, type ChatwootWorld, type Client } from './functions-helpers.ts';

let world: ChatwootWorld;
let demo: Client;

beforeAll(async () => {
  world = await startChatwootWorld();
  demo = await signIn(world.ref, SEEDED.demo);
});
afterAll(async () => {
  await world?.stop();
});

const setBase = (url: string) => sql(world.ref, 'update public.chatwoot_config set api_base_url = $1', [url]);

describe('Chatwoot down', () => {
  it('a send while Chatwoot is unreachable is a 5xx without storing twice; the retry after it is back lands once', async () => {
    const conv = (await call(demo, 'start-conversation', { specialist_id: SPECIALIST.zuzana })).body.conversation_id as string;
    await call(demo, 'admin-chatwoot-send', { conversation_id: conv, content: 'Prepojenie', client_correlation_id: randomUUID() });
    const correlation = randomUUID();
    const body = { conversation_id: conv, content: `Chatwoot dole ${correlation.slice(0, 8)}`, client_correlation_id: correlation };

    await setBase(`http://127.0.0.1:${await freePort()}`); // nothing listens there
    try {
      const down = await call(demo, 'admin-chatwoot-send', body);
      expect(down.status).toBeGreaterThanOrEqual(500);
      const again = await call(demo, 'admin-chatwoot-send', body);
      expect(again.status).toBeGreaterThanOrEqual(500);
    } finally {
      await setBase(world.double.url);
    }
    const back = await call(demo, 'admin-chatwoot-send', body);
    expect(back.status).toBe(200);
    expect((await messagesOf(world.ref, conv)).filter((m) => m.client_correlation_id === correlation)).toHaveLength(1);
    expect([...world.double.store.messages.values()].filter((m) => m.sourceId === correlation)).toHaveLength(1);
  });
});
