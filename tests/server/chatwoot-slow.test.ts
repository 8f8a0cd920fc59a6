// Chatwoot slow: the double handles a message post at once (the message exists in Chatwoot, its
// webhook goes out) but holds the reply back. Longer than the function's Chatwoot timeout
// (CHATWOOT_TIMEOUT_MS): the member's send is a clear 502 naming Chatwoot, the row is stored once, and
// the retry with the same correlation id finds the message Chatwoot already has instead of posting
// it again. Just under the timeout: the send succeeds, slowly, once. Either way exactly one message
// in PostgreSQL and one in Chatwoot.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHATWOOT_TIMEOUT_MS } from '../../supabase/functions/_shared/chatwoot/api.ts';
import { SEEDED, SPECIALIST, call, messagesOf, signIn, startChatwootWorld, type ChatwootWorld, type Client } from './functions-helpers.ts';

let world: ChatwootWorld;
let demo: Client;
let conv: string;

beforeAll(async () => {
  world = await startChatwootWorld();
  demo = await signIn(world.ref, SEEDED.demo);
  conv = (await call(demo, 'start-conversation', { specialist_id: SPECIALIST.zuzana })).body.conversation_id as string;
  await call(demo, 'admin-chatwoot-send', { conversation_id: conv, content: 'Prepojenie', client_correlation_id: randomUUID() });
});
afterEach(() => world?.double.setReplyDelay(0));
afterAll(async () => {
  await world?.stop();
});

const isMessagePost = (method: string, path: string) => method === 'POST' && /\/conversations\/\d+\/messages$/.test(path);
const postsOf = (correlation: string) =>
  world.double.requests.filter((r) => isMessagePost(r.method, r.path) && (r.body as { source_id?: string } | null)?.source_id === correlation);
const inChatwoot = (correlation: string) => [...world.double.store.messages.values()].filter((m) => m.sourceId === correlation);
const stored = async (correlation: string) => (await messagesOf(world.ref, conv)).filter((m) => m.client_correlation_id === correlation);

describe('Chatwoot slow', () => {
  it('slower than the timeout: a clear 502, then the retry lands without a second post', async () => {
    const correlation = randomUUID();
    const body = { conversation_id: conv, content: `Chatwoot pomaly ${correlation.slice(0, 8)}`, client_correlation_id: correlation };
    world.double.setReplyDelay(CHATWOOT_TIMEOUT_MS + 3000, isMessagePost);
    const started = Date.now();
    const slow = await call(demo, 'admin-chatwoot-send', body);
    const tookMs = Date.now() - started;
    expect(slow.status).toBe(502);
    expect(slow.body).toMatchObject({ success: false });
    expect(String((slow.body as { error?: unknown }).error)).toMatch(/^Chatwoot je nedostupný: .+/);
    // The function gave up at its timeout, not when Chatwoot finally answered.
    expect(tookMs).toBeLessThan(CHATWOOT_TIMEOUT_MS + 3000);
    expect(await stored(correlation)).toHaveLength(1);
    expect(inChatwoot(correlation)).toHaveLength(1);

    world.double.setReplyDelay(0);
    const retry = await call(demo, 'admin-chatwoot-send', body);
    expect(retry.status).toBe(200);
    const rows = await stored(correlation);
    expect(rows).toHaveLength(1);
    expect(inChatwoot(correlation)).toHaveLength(1);
    expect(rows[0]!.chatwoot_message_id).toBe(String(inChatwoot(correlation)[0]!.id));
    // Chatwoot was asked to create it once, by the first attempt.
    await world.double.heldRepliesSent(); // the first attempt's post is logged once its held-back reply goes
    expect(postsOf(correlation)).toHaveLength(1);
  });

  it('just under the timeout: the send succeeds once', async () => {
    const correlation = randomUUID();
    const body = { conversation_id: conv, content: `Chatwoot takmer včas ${correlation.slice(0, 8)}`, client_correlation_id: correlation };
    world.double.setReplyDelay(CHATWOOT_TIMEOUT_MS - 1500, isMessagePost);
    const ok = await call(demo, 'admin-chatwoot-send', body);
    expect(ok.status).toBe(200);
    const rows = await stored(correlation);
    expect(rows).toHaveLength(1);
    expect(inChatwoot(correlation)).toHaveLength(1);
    expect(rows[0]!.chatwoot_message_id).toBe(String(inChatwoot(correlation)[0]!.id));
    expect(postsOf(correlation)).toHaveLength(1);
  });
});
