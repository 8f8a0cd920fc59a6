// R9.18: a realtime row that may belong to the database before a feed reset is not merged. Realtime
// rows carry no feed identity (R9.7's epoch rides only on pull pages), and a channel joined before a
// backup was restored can still hand over a row the restore took away after the device has already
// reset its feed for the restored database: a frame delayed on the phone's network, or the server's
// fan-out behind under load (the hostile fuzz's seed 7 under CI load: "lost by a restore, still shown
// sent"). Merged, that row stayed shown sent for good, since no pull of the new database names it.
//
// Rows of a transport subscribed before the latest reset therefore only ask for a pull (the pull is
// the truth and carries the epoch). A transport subscribed after the reset joined after the restore,
// so the server sends it only changes committed after it. Every other event kind passes unchanged:
// none of them stores a row of the feed (Chatwoot's provisional copies are settled by the pull they ask
// for). The cost after a restore is one pull per row event until the next resubscribe. A row that
// passes here carries the generation its channel joined in, and its write checks it again when it
// runs (receive/apply.ts `joinedIn`): a change of identity between this event and that write (R9.20
// counts one inside its own transaction) makes it a pull too.
import type { Transport, TransportEvent } from '../transports/transport.ts';

/** `generation`: the feed's identity changes now (session/feed-generation.ts). */
export function rowsWithinGeneration(t: Transport, generation: () => number): Transport {
  return {
    name: t.name,
    status: () => t.status(),
    close: () => t.close(),
    subscribe(handlers) {
      const joinedIn = generation();
      t.subscribe({
        onStatus: (s, detail) => (detail === undefined ? handlers.onStatus(s) : handlers.onStatus(s, detail)),
        onEvent: (e: TransportEvent) => handlers.onEvent(e.kind !== 'row' ? e : generation() !== joinedIn ? { kind: 'changed' } : { ...e, joinedIn }),
      });
    },
  };
}
