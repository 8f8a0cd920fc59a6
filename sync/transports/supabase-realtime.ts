// R6.1: Supabase Realtime, account level: one channel with postgres_changes filtered by account_id
// (the server also applies RLS) on the tables the engine asks for (R18.6: by default conversations and
// messages; read_cursors only where the user topic's broadcast does not reach the engine), and with
// R18.4 the private `account:<id>` channel of Broadcast from the database. One transport per
// subscription attempt; the machine makes a new one to resubscribe.
import { REALTIME_SUBSCRIBE_STATES, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import type { RemoteTable } from '../model/remote-types.ts';
import { FEED_EVENT, feedEvent } from './feed-event.ts';
import { statusCell, type Transport } from './transport.ts';

const ALL_TABLES: readonly RemoteTable[] = ['conversations', 'messages', 'read_cursors'];

export interface RealtimeOptions {
  supabase: SupabaseClient;
  accountId: string;
  /** Distinct per engine so two engines on one client do not share a topic. */
  topic?: string;
  /**
   * R9.19: makes the client's session usable (the engine's session gate: refreshed when expired,
   * R9.1/R9.12) before the channel joins; absent: the join goes with whatever token realtime holds.
   */
  freshSession?: () => Promise<unknown>;
  /**
   * R18.4: also join the private `account:<accountId>` channel the database broadcasts the feed's
   * numbers on. The link is up only when both channels are joined; a refused private join (no
   * realtime.messages policies) reports an error, so the machine falls back to polling (R6.3) and the
   * status shows realtime down, never a silent deafness.
   */
  feedBroadcast?: boolean;
  /** The tables whose postgres_changes this channel carries (R18.6); default all three. */
  rowTables?: readonly RemoteTable[];
}

interface ChangePayload {
  eventType: 'INSERT' | 'UPDATE' | 'DELETE';
  table: string;
  new: unknown;
  old: unknown;
}

export function createSupabaseRealtimeTransport(opts: RealtimeOptions): Transport {
  const cell = statusCell();
  let channel: RealtimeChannel | null = null;
  let feed: RealtimeChannel | null = null;
  return {
    name: 'supabase-realtime',
    status: cell.get,
    subscribe(handlers) {
      cell.attach(handlers);
      cell.set('connecting');
      let ch = opts.supabase.channel(opts.topic ?? `sync:${opts.accountId}`);
      for (const table of opts.rowTables ?? ALL_TABLES) {
        ch = ch.on('postgres_changes', { event: '*', schema: 'public', table, filter: `account_id=eq.${opts.accountId}` }, (p: ChangePayload) => {
          cell.emit({ kind: 'row', table, op: p.eventType, record: p.new, oldRecord: p.old });
        });
      }
      // R6.9: hosted Realtime says on the channel whether it could subscribe to PostgreSQL
      // (supabase/realtime lib/realtime_web/channels/realtime_channel.ex `push_system_message`:
      // event "system", extension "postgres_changes", status "ok" with "Subscribed to PostgreSQL", or
      // "error" while it cannot, retried by the server every 5–10 s). While it cannot, no change
      // arrives although the channel is joined: the link is down for the machine (polling, the
      // connection notice), and up again at the server's "ok". realtime-js hands these on only to a
      // 'system' listener.
      let postgresLost = false;
      ch = ch.on('system', {}, (p: { extension?: string; status?: string; message?: string }) => {
        if (p.extension !== 'postgres_changes') return;
        if (p.status === 'error') {
          postgresLost = true;
          if (cell.get() === 'connected') cell.set('degraded', p.message ?? 'postgres_changes error');
        } else if (p.status === 'ok' && postgresLost) {
          postgresLost = false;
          if (cell.get() === 'degraded') cell.set('connected');
        }
      });
      channel = ch;
      // supabase-js hands out one channel object per topic and client: a second engine on this client
      // leaves the account topic to the first and keeps postgres_changes alone (R18.4).
      const feedTopic = `account:${opts.accountId}`;
      const shared = opts.supabase.getChannels().some((c) => c.topic === `realtime:${feedTopic}`);
      if (opts.feedBroadcast && !shared)
        feed = opts.supabase.channel(feedTopic, { config: { private: true } }).on('broadcast', { event: FEED_EVENT }, (m: { payload?: unknown }) => {
          const e = feedEvent(m.payload, opts.accountId);
          if (e) cell.emit(e);
        });
      const joined = new Set<RealtimeChannel>();
      const watch = (c: RealtimeChannel) =>
        c.subscribe((status, err) => {
          if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) {
            joined.add(c);
            if (joined.size === (feed ? 2 : 1)) cell.set(postgresLost ? 'degraded' : 'connected');
          } else if (status === REALTIME_SUBSCRIBE_STATES.CLOSED) cell.set('disconnected', 'closed');
          else cell.set('error', err?.message ?? status);
        });
      const join = () => {
        watch(ch);
        if (feed) watch(feed);
      };
      const fresh = opts.freshSession;
      if (!fresh) return void join();
      // R9.19 (supabase-js#2613): a tab hidden past its token's life wakes with realtime still
      // holding the expired token, and realtime-js's connect() asks the client for a token without
      // waiting before the join, so the join carried the stale one and was refused. The session is
      // made fresh first, realtime takes it (setAuth() with no token asks the client again, so
      // supabase-js's own updates keep flowing: supabase/realtime-js src/RealtimeClient.ts
      // `_performAuth`), and only then the channel joins. A failed refresh still joins: the server
      // refuses it and the machine falls back to polling as for any failed subscription (R6).
      void fresh()
        .catch(() => undefined)
        .then(() => opts.supabase.realtime.setAuth())
        .catch(() => undefined)
        .then(() => {
          if (channel === ch) join();
        });
    },
    async close() {
      cell.close();
      const ch = channel;
      channel = null;
      const f = feed;
      feed = null;
      if (f) await opts.supabase.removeChannel(f).catch(() => undefined);
      if (ch) await opts.supabase.removeChannel(ch).catch(() => undefined);
      // removeChannel leaves the socket open (supabase/realtime-js src/RealtimeClient.ts
      // removeChannel: unsubscribe + teardown only), and an open socket with its heartbeat keeps a
      // Node process alive after engine.stop(). The socket is closed only when no channel is left,
      // so channels the app made on the same client keep theirs (a later subscribe reconnects).
      if (ch && opts.supabase.getChannels().length === 0) await opts.supabase.realtime.disconnect();
    },
  };
}
