import type { Consumer, Mixin, Subscription } from '@rails/actioncable';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../../sync/model/clock.ts';
import { SPEC_TIMINGS } from '../../../sync/model/constants.ts';
import { cableReconnectDelay } from '../../../sync/transports/cable-backoff.ts';
import { createChatwootCableTransport } from '../../../sync/transports/chatwoot-cable.ts';
import { chatwootEvents } from '../../../sync/transports/chatwoot-events.ts';
import { nextPollDelay } from '../../../sync/transports/polling.ts';
import { createSupabaseRealtimeTransport } from '../../../sync/transports/supabase-realtime.ts';
import type { TransportEvent, TransportStatus } from '../../../sync/transports/transport.ts';
import type { SupabaseClient } from '@supabase/supabase-js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

interface FakeConsumer extends Consumer {
  params: Record<string, unknown>;
  mixin: Mixin;
  performed: string[];
  disconnected: boolean;
}

function fakeConsumers() {
  const made: FakeConsumer[] = [];
  const create = (): Consumer => {
    const c = {
      params: {},
      mixin: {},
      performed: [] as string[],
      disconnected: false,
      connect: () => true,
      disconnect: () => {
        c.disconnected = true;
      },
      subscriptions: {
        create(params: Record<string, unknown>, mixin: Mixin): Subscription {
          c.params = params;
          c.mixin = mixin;
          return { perform: (action: string) => (c.performed.push(action), true), unsubscribe: () => undefined };
        },
      },
    } as FakeConsumer;
    made.push(c);
    return c;
  };
  return { made, create };
}

describe('R6 transports', () => {
  it('R6.2 Chatwoot reconnect delay: 1000 ms × 1.5^n capped at 15 s plus 0–30 % jitter', () => {
    expect([0, 1, 2, 3, 6, 7, 9].map((n) => cableReconnectDelay(n, () => 0))).toEqual([1000, 1500, 2250, 3375, 11391, 15000, 15000]);
    expect(cableReconnectDelay(0, () => 0.999)).toBe(1300);
    expect(cableReconnectDelay(9, () => 0.5)).toBe(17250);
  });

  it('R6.2 subscribes to RoomChannel with pubsub_token, account_id and user_id and pings presence every 30 s', async () => {
    const f = fakeConsumers();
    const t = createChatwootCableTransport({ url: 'ws://x/cable', clock: systemClock, createConsumer: f.create, credentials: async () => ({ pubsubToken: 'tok', accountId: 3, userId: 7 }) });
    const statuses: TransportStatus[] = [];
    t.subscribe({ onEvent: () => undefined, onStatus: (s) => statuses.push(s) });
    await vi.advanceTimersByTimeAsync(0);
    expect(f.made[0]?.params).toEqual({ channel: 'RoomChannel', pubsub_token: 'tok', account_id: 3, user_id: 7 });
    f.made[0]!.mixin.connected?.();
    expect(statuses).toEqual(['connecting', 'connected']);
    expect(f.made[0]!.performed).toEqual(['update_presence']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(f.made[0]!.performed).toEqual(['update_presence', 'update_presence', 'update_presence']);
    await t.close();
    expect(f.made[0]!.disconnected).toBe(true);
  });

  it('R6.2 reconnects at most 10 times with the spec back-off, then reports error', async () => {
    const f = fakeConsumers();
    const t = createChatwootCableTransport({ url: 'ws://x/cable', clock: systemClock, random: () => 0, createConsumer: f.create, credentials: async () => ({ pubsubToken: 'tok', accountId: 1, userId: 1 }) });
    const statuses: string[] = [];
    t.subscribe({ onEvent: () => undefined, onStatus: (s) => statuses.push(s) });
    await vi.advanceTimersByTimeAsync(0);
    const delays: number[] = [];
    for (let i = 0; i < 11; i++) {
      f.made[f.made.length - 1]!.mixin.disconnected?.();
      const before = f.made.length;
      const t0 = Date.now();
      while (f.made.length === before && Date.now() - t0 < 20_000) await vi.advanceTimersByTimeAsync(1);
      if (f.made.length > before) delays.push(Date.now() - t0);
    }
    expect(delays).toEqual([1000, 1500, 2250, 3375, 5063, 7594, 11391, 15000, 15000, 15000]);
    expect(f.made).toHaveLength(11); // the first connection and 10 attempts
    expect(statuses[statuses.length - 1]).toBe('error');
    expect(t.status()).toBe('error');
    await t.close();
  });

  it('R6.2 a successful subscription resets the attempt count', async () => {
    const f = fakeConsumers();
    const t = createChatwootCableTransport({ url: 'ws://x/cable', clock: systemClock, random: () => 0, createConsumer: f.create, credentials: async () => ({ pubsubToken: 't', accountId: 1, userId: 1 }) });
    t.subscribe({ onEvent: () => undefined, onStatus: () => undefined });
    await vi.advanceTimersByTimeAsync(0);
    f.made[0]!.mixin.disconnected?.();
    await vi.advanceTimersByTimeAsync(999);
    expect(f.made).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    f.made[1]!.mixin.disconnected?.();
    await vi.advanceTimersByTimeAsync(1500);
    expect(f.made).toHaveLength(3);
    f.made[2]!.mixin.connected?.();
    f.made[2]!.mixin.disconnected?.();
    await vi.advanceTimersByTimeAsync(1000);
    expect(f.made).toHaveLength(4);
    await t.close();
  });

  it('R6.2 the six events map to messages, hints and typing; private notes never show', () => {
    const created = chatwootEvents({ event: 'message.created', data: { id: 55, content: 'Dobrý deň', message_type: 1, created_at: 1700000000, conversation_id: 9, echo_id: null, private: false } });
    expect(created[0]).toEqual({
      kind: 'external-message',
      message: { chatwootMessageId: '55', chatwootConversationId: '9', text: 'Dobrý deň', direction: 'specialist', correlationId: null, createdAtMs: 1700000000000, type: 'text' },
    });
    expect(created[1]).toEqual({ kind: 'changed' });
    expect(chatwootEvents({ event: 'message.updated', data: { id: 1, content: 'x', private: true, conversation_id: 9 } })).toEqual([{ kind: 'changed' }]);
    expect(chatwootEvents({ event: 'conversation.created', data: {} })).toEqual([{ kind: 'changed' }]);
    expect(chatwootEvents({ event: 'conversation.status_changed', data: {} })).toEqual([{ kind: 'changed' }]);
    expect(chatwootEvents({ event: 'conversation.typing_on', data: { conversation: { id: 9 } } })).toEqual([{ kind: 'typing', chatwootConversationId: '9', on: true }]);
    expect(chatwootEvents({ event: 'typing_off', data: { conversation_id: 9 } })).toEqual([{ kind: 'typing', chatwootConversationId: '9', on: false }]);
    expect(chatwootEvents({ event: 'presence.update', data: {} })).toEqual([]);
  });

  it('R6.3 the polling back-off grows by 1.5 up to 15 s', () => {
    const seq = [SPEC_TIMINGS.pollStartMs];
    for (let i = 0; i < 7; i++) seq.push(nextPollDelay(seq[seq.length - 1]!, SPEC_TIMINGS));
    expect(seq).toEqual([2000, 3000, 4500, 6750, 10125, 15000, 15000, 15000]);
  });

  it('R6.1 Supabase realtime: one channel, three account-filtered postgres_changes bindings, status mapped', async () => {
    const bindings: { filter: unknown }[] = [];
    let onChange: ((p: unknown) => void) | undefined;
    let onSystem: ((p: unknown) => void) | undefined;
    let onSubscribe: ((s: string, e?: Error) => void) | undefined;
    let removed = 0;
    const channel = {
      on(type: string, filter: unknown, cb: (p: unknown) => void) {
        if (type === 'system') {
          onSystem = cb;
          return channel;
        }
        bindings.push({ filter });
        onChange ??= cb;
        return channel;
      },
      subscribe(cb: (s: string, e?: Error) => void) {
        onSubscribe = cb;
        return channel;
      },
    };
    let disconnected = 0;
    const supabase = {
      channel: () => channel,
      removeChannel: async () => (removed++, 'ok'),
      getChannels: () => [],
      realtime: { disconnect: async () => void disconnected++ },
    } as unknown as SupabaseClient;
    const t = createSupabaseRealtimeTransport({ supabase, accountId: 'acc-1' });
    const events: TransportEvent[] = [];
    const statuses: string[] = [];
    t.subscribe({ onEvent: (e) => events.push(e), onStatus: (s) => statuses.push(s) });
    expect(bindings.map((b) => b.filter)).toEqual(
      ['conversations', 'messages', 'read_cursors'].map((table) => ({ event: '*', schema: 'public', table, filter: 'account_id=eq.acc-1' })),
    );
    onSubscribe?.('SUBSCRIBED');
    onChange?.({ eventType: 'INSERT', table: 'conversations', new: { id: 'c' }, old: {} });
    // R6.9: the server's word on PostgreSQL; another extension's or a repeated 'ok' changes nothing.
    onSystem?.({ extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL' });
    onSystem?.({ extension: 'system', status: 'error', message: 'other' });
    onSystem?.({ extension: 'postgres_changes', status: 'error', message: 'Lost the connection to PostgreSQL' });
    onSystem?.({ extension: 'postgres_changes', status: 'ok', message: 'Subscribed to PostgreSQL' });
    onSubscribe?.('CHANNEL_ERROR', new Error('boom'));
    expect(statuses).toEqual(['connecting', 'connected', 'degraded', 'connected', 'error']);
    expect(events).toEqual([{ kind: 'row', table: 'conversations', op: 'INSERT', record: { id: 'c' }, oldRecord: {} }]);
    await t.close();
    expect(removed).toBe(1);
    expect(disconnected).toBe(1); // no channel left on the socket: closed, so stop() leaves Node free to exit
    onChange?.({ eventType: 'INSERT', table: 'conversations', new: { id: 'late' }, old: {} });
    expect(events).toHaveLength(1);
  });
});
