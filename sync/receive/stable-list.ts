// R6.7: an open chat's message list keeps its array while a new answer holds the same messages with
// the same fields. Per arrival the list is rebuilt about three times (the realtime copy painted, its
// stored row published, the live read's answer), the last two usually field for field what is already
// shown; a new array re-renders the list, recomputes the virtualizer's rows and re-runs the effects
// that watch it (issue 19's receiver profile). Pure.
import type { LocalMessage } from '../model/local-types.ts';

/** Every field of a message but its payload (compared by content below). */
const FIELDS = [
  'key', 'serverId', 'conversationId', 'accountId', 'text', 'type', 'direction', 'source', 'chatwootMessageId', 'createdAt',
  'orderKey', 'readAt', 'correlationId', 'senderUserId', 'changeSeq', 'state', 'origin', 'error', 'confirmedAt',
] as const satisfies readonly (keyof LocalMessage)[];
// A field added to LocalMessage and not listed above fails to compile here.
const everyField: Exclude<keyof LocalMessage, (typeof FIELDS)[number] | 'payload'> extends never ? true : never = true;
void everyField;

/** Every field equal (the payload by content): nothing a view could show or act on differs. */
export function sameMessage(a: LocalMessage, b: LocalMessage): boolean {
  if (a === b) return true;
  for (const f of FIELDS) if (a[f] !== b[f]) return false;
  return a.payload === b.payload || JSON.stringify(a.payload) === JSON.stringify(b.payload);
}

/** `prev` when `next` is the same list message for message, else `next`. */
export function keepIfSame(prev: LocalMessage[] | undefined, next: LocalMessage[]): LocalMessage[] {
  if (prev === undefined || prev === next || prev.length !== next.length) return next;
  // From the end: a change is nearly always among the newest rows.
  for (let i = next.length - 1; i >= 0; i--) if (!sameMessage(prev[i]!, next[i]!)) return next;
  return prev;
}
