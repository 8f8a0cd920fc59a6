// R19.8 (issue 35, bench row 5): R5.11's head asks its conversations' newest pages a few at a time,
// through the real supabase-js client and server API against a PostgREST stand-in (a fetch that
// answers the head's two queries from FakeServer rows and holds each reply until released), so the
// requests in flight are counted, not timed.
import { createClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createSupabaseServerApi, HEAD_PARALLEL } from '../../../sync/server/supabase-api.ts';
import { HEAD_LIMITS } from '../../../sync/receive/pull.ts';
import { FakeServer, SPECIALIST } from './helpers/fake-server.ts';

interface Held {
  conversationId: string;
  release: () => void;
}

/** A PostgREST stand-in for the head's queries; message replies wait in `held` until released. */
function headServer(server: FakeServer) {
  const held: Held[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  const fetch = async (input: RequestInfo | URL): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.pathname.endsWith('/rest/v1/conversations')) {
      const rows = [...server.conversations.values()].sort((a, b) => (b.last_message_at ?? '').localeCompare(a.last_message_at ?? ''));
      return json(rows.map((c) => ({ ...c, specialist: SPECIALIST })));
    }
    const conversationId = url.searchParams.get('conversation_id')!.replace(/^eq\./, '');
    const limit = Number(url.searchParams.get('limit'));
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise<void>((release) => held.push({ conversationId, release }));
    inFlight--;
    const rows = [...server.messages.values()].filter((m) => m.conversation_id === conversationId).reverse().slice(0, limit);
    return json(rows);
  };
  return { fetch, held, maxInFlight: () => maxInFlight, inFlight: () => inFlight };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

/** Unmodified supabase-js over `fetch` (Node 20 has no global WebSocket; realtime is never joined here). */
const clientOver = (fetch: typeof globalThis.fetch) =>
  createClient('http://postgrest.test', 'anon-key', { global: { fetch }, auth: { persistSession: false, autoRefreshToken: false }, realtime: { transport: WebSocket as never } });

describe('R19.8 the head’s requests', () => {
  it('R19.8 R5.11 the head asks its conversations’ newest pages HEAD_PARALLEL at a time, and keeps their rows in the conversations’ order', async () => {
    const server = new FakeServer();
    const conversations = Array.from({ length: 12 }, () => server.addConversation());
    for (const c of conversations) for (let i = 0; i < 3; i++) server.addMessage(c.id, { text: `${c.id} ${i}` });
    const stand = headServer(server);
    const api = createSupabaseServerApi(clientOver(stand.fetch));
    const head = api.pullHead!(0, { ...HEAD_LIMITS, withMessages: 10 });
    // Released in reverse order of asking: a reply that comes back first must not come first.
    for (;;) {
      await settle();
      if (stand.held.length === 0 && stand.inFlight() === 0) break;
      await new Promise((r) => setTimeout(r, 5));
      stand.held.pop()?.release();
    }
    const { messages, conversations: listed } = await head;
    // One after the other, only one was ever in flight (the old code); all ten at once would ignore the bound.
    expect(stand.maxInFlight()).toBe(HEAD_PARALLEL);
    const order = listed.slice(0, 10).map((c) => c.id);
    expect([...new Set(messages.map((m) => m.conversation_id))]).toEqual(order);
    expect(messages).toHaveLength(30);
  });

  it('R19.8 R5.11 a failed request of the head fails it, and no request is asked after the failure', async () => {
    const server = new FakeServer();
    for (let i = 0; i < 12; i++) server.addMessage(server.addConversation().id);
    let asked = 0;
    const fetch = async (input: RequestInfo | URL): Promise<Response> => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      if (url.pathname.endsWith('/rest/v1/conversations')) return new Response(JSON.stringify([...server.conversations.values()].map((c) => ({ ...c, specialist: SPECIALIST }))), { status: 200 });
      asked++;
      return new Response(JSON.stringify({ message: 'boom', code: 'XX000' }), { status: 500 });
    };
    const api = createSupabaseServerApi(clientOver(fetch));
    await expect(api.pullHead!(0, { ...HEAD_LIMITS, withMessages: 10 })).rejects.toThrow();
    await settle();
    expect(asked).toBeLessThanOrEqual(HEAD_PARALLEL);
  });
});
