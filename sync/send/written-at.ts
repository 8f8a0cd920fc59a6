// R1.14: the time a message was written travels with its send as payload.written_at, so a message
// typed offline and delivered later shows when it was typed (issue 37 user item 12). The time is the
// optimistic message's created_at: device time moved onto the server's clock (R9.11), after every
// stored message of the conversation (R1.2). The server keeps it between the conversation's creation
// and its own receive time (migration 20261129130000); order stays the server's.
import type { JsonObject } from '../model/json.ts';

/** The payload a send carries: the caller's payload with the written time added. */
export function withWrittenAt(payload: JsonObject | null, writtenAt: string): JsonObject {
  return { ...(payload ?? {}), written_at: writtenAt };
}
