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
      ch.subscribe((status, err) => {
        if (status === REALTIME_SUBSCRIBE_STATES.SUBSCRIBED) cell.set('connected');
        else if (status === REALTIME_SUBSCRIBE_STATES.CLOSED) cell.set('disconnected', 'closed');
        else cell.set('error', err?.message ?? status);
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
