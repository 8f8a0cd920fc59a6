// R6.8: the relay. A message this device is sending goes, besides its send_message request, to the
// user's other devices over a private Supabase Realtime broadcast channel on `user:<user id>`, so they
// paint it ("sending") before the server's row reaches them (bench row 4: A → B). Only the user's own
// devices may join or push on that topic (public.realtime_topic_allowed, 20261127000100); a private
// channel never hears a public one of the same name. Nothing is stored from it: receive/relayed.ts
// turns a copy into a transient bubble that the stored row replaces, a withdrawal (the server refused
// the send on the sending device) or a timer drops.
// R18.7: the same channel carries the database's `changed` broadcasts of the user's own read cursors
// (R18.1): supabase-js keeps one channel object per topic and client, so the relay's channel is the
// device's only `user:<id>` channel, and it hands them on as they come (relay-link.ts checks them).
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { FEED_EVENT } from './feed-event.ts';

/** The broadcast event of a relayed send. */
export const RELAY_EVENT = 'send';
/** The broadcast event that withdraws a relayed send the server refused (a build without it ignores it). */
export const RELAY_WITHDRAW_EVENT = 'withdraw';

/** What one device tells the others of a send (snake_case, as a server row). */
export interface RelayedSend {
  v: 1;
  account_id: string;
  conversation_id: string;
  client_correlation_id: string;
  text: string;
  /** The sender's estimate of the server's clock when it sent (ISO); orders the copy until the row comes. */
  created_at: string;
}

/** What one device tells the others when the server refused a send it relayed: drop its copy. */
export interface RelayedWithdrawal {
  v: 1;
  account_id: string;
  client_correlation_id: string;
}

export interface Relay {
  /**
   * Starts listening; `onCopy` gets every other device's send and `onWithdrawn` its withdrawals,
   * both unchecked (receive/relayed.ts checks them); `onFeed` the database's feed numbers on the
   * user topic (R18.7), unchecked too.
   */
  subscribe(onCopy: (payload: unknown) => void, onWithdrawn: (payload: unknown) => void, onFeed?: (payload: unknown) => void): void;
  /** Pushes a send to the user's other devices; false (nothing sent) while the channel is not joined. */
  publish(send: RelayedSend): boolean;
  /** Pushes a withdrawal the same way; false (nothing sent) while the channel is not joined. */
  withdraw(w: RelayedWithdrawal): boolean;
  close(): Promise<void>;
}

export function createSupabaseRelay(opts: { supabase: SupabaseClient; userId: string }): Relay {
  const { supabase } = opts;
  let channel: RealtimeChannel | null = null;
  const push = (event: string, payload: RelayedSend | RelayedWithdrawal): boolean => {
    const ch = channel;
    // Only over the joined socket: realtime-js would otherwise post it over HTTP, a second request
    // per send for something that is only a head start.
    if (!ch || ch.state !== 'joined' || !supabase.realtime.isConnected()) return false;
    void ch.send({ type: 'broadcast', event, payload }).catch(() => undefined);
    return true;
  };
  return {
    subscribe(onCopy, onWithdrawn, onFeed) {
      // self: false — a device never gets its own send back; ack: false — a relay is best effort,
      // the send_message request is what delivers.
      const ch = supabase
        .channel(`user:${opts.userId}`, { config: { private: true, broadcast: { self: false, ack: false } } })
        .on('broadcast', { event: RELAY_EVENT }, (m: { payload?: unknown }) => onCopy(m.payload))
        .on('broadcast', { event: RELAY_WITHDRAW_EVENT }, (m: { payload?: unknown }) => onWithdrawn(m.payload))
        .on('broadcast', { event: FEED_EVENT }, (m: { payload?: unknown }) => onFeed?.(m.payload));
      channel = ch;
      ch.subscribe();
    },
    publish: (send) => push(RELAY_EVENT, send),
    withdraw: (w) => push(RELAY_WITHDRAW_EVENT, w),
    async close() {
      const ch = channel;
      channel = null;
      if (!ch) return;
      await supabase.removeChannel(ch).catch(() => undefined);
      // As the sync transport does (supabase-realtime.ts): the socket goes when no channel is left.
      if (supabase.getChannels().length === 0) await supabase.realtime.disconnect();
    },
  };
}
