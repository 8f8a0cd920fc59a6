// R6.8: a leading engine's link to the relay. Its own sends go out once their request has started and
// its refused sends go out as withdrawals; the other devices' copies and withdrawals come in to the
// publications (published.ts), which hand them to an open chat. Nothing of it is stored.
// R18.7: the database's feed numbers on the user topic (the own read cursors) go to `onFeed` as feed
// events of the account the engine acts in; any other payload is dropped.
import type { RelaySend } from '../commands/context.ts';
import { syncMark } from '../marks.ts';
import { feedEvent } from '../transports/feed-event.ts';
import type { Relay } from '../transports/relay.ts';
import type { TransportEvent } from '../transports/transport.ts';
import type { Publications } from './published.ts';
import { relayedSend, relayedWithdrawal } from './relayed.ts';

export interface RelayLink {
  /** A send whose request has started (commands/send-message.ts). */
  sent: (send: RelaySend) => void;
  /** A send the server refused for good, stored as failed (send/push.ts): the other devices drop its copy. */
  refused: (correlationId: string) => void;
}

export function linkRelay(
  relay: Relay,
  deps: {
    published: Pick<Publications, 'onRelayed' | 'onWithdrawn'>;
    accountId: () => string | null;
    serverNowMs: () => number;
    onFeed?: (e: TransportEvent) => void;
  },
): RelayLink {
  relay.subscribe(
    (payload) => deps.published.onRelayed(payload),
    (payload) => deps.published.onWithdrawn(payload),
    (payload) => {
      const e = feedEvent(payload, deps.accountId());
      if (e) deps.onFeed?.(e);
    },
  );
  return {
    sent(send) {
      const payload = relayedSend({ ...send, accountId: deps.accountId(), serverNowMs: deps.serverNowMs() });
      if (payload && relay.publish(payload)) syncMark('poradna:relay:sent', { correlationId: payload.client_correlation_id });
    },
    refused(correlationId) {
      const withdrawal = relayedWithdrawal(deps.accountId(), correlationId);
      if (withdrawal) relay.withdraw(withdrawal);
    },
  };
}
