// R6.8: a leading engine's link to the relay. Its own sends go out once their request has started and
// its refused sends go out as withdrawals; the other devices' copies and withdrawals come in to the
// publications (published.ts), which hand them to an open chat. Nothing of it is stored.
import type { RelaySend } from '../commands/context.ts';
import { syncMark } from '../marks.ts';
import type { Relay } from '../transports/relay.ts';
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
  deps: { published: Pick<Publications, 'onRelayed' | 'onWithdrawn'>; accountId: () => string | null; serverNowMs: () => number },
): RelayLink {
  relay.subscribe(
    (payload) => deps.published.onRelayed(payload),
    (payload) => deps.published.onWithdrawn(payload),
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
