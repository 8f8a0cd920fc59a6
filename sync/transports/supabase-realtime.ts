// R6.1: Supabase Realtime, account level: one channel with postgres_changes on conversations,
// messages and read_cursors filtered by account_id (the server also applies RLS). One transport per
// subscription attempt; the machine makes a new one to resubscribe.
import { REALTIME_SUBSCRIBE_STATES, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js';
import type { RemoteTable } from '../model/remote-types.ts';
import { statusCell, type Transport } from './transport.ts';

const TABLES: RemoteTable[] = ['conversations', 'messages', 'read_cursors'];

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
  return {
    name: 'supabase-realtime',
    status: cell.get,
    subscribe(handlers) {
      cell.attach(handlers);
      cell.set('connecting');
      let ch = opts.supabase.channel(opts.topic ?? `sync:${opts.accountId}`);
      for (const table of TABLES) {
        ch = ch.on('postgres_changes', { event: '*', schema: 'public', table, filter: `account_id=eq.${opts.accountId}` }, (p: ChangePayload) => {
          cell.emit({ kind: 'row', table, op: p.eventType, record: p.new, oldRecord: p.old });
        });
      }
      channel = ch;
      const join = () =>
        ch.subscribe((status, err) => {
          if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) cell.set('connected');
          else if (status === REALTIME_SUBSCRIBE_STATES.CLOSED) cell.set('disconnected', 'closed');
          else cell.set('error', err?.message ?? status);
        });
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
      if (ch) await opts.supabase.removeChannel(ch).catch(() => undefined);
      // removeChannel leaves the socket open (supabase/realtime-js src/RealtimeClient.ts
      // removeChannel: unsubscribe + teardown only), and an open socket with its heartbeat keeps a
      // Node process alive after engine.stop(). The socket is closed only when no channel is left,
      // so channels the app made on the same client keep theirs (a later subscribe reconnects).
      if (ch && opts.supabase.getChannels().length === 0) await opts.supabase.realtime.disconnect();
    },
  };
}
