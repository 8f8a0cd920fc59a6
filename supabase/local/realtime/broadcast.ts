// Broadcast within a topic: every other channel joined to the same topic gets the message (the sender
// too when it joined with broadcast.self). Nothing is stored. Invariant: only channels whose token the
// topic rule admits (Channel.topicAllowed, from public.realtime_topic_allowed) send or receive, so a
// member cannot broadcast into, or listen to broadcasts of, another account's topic; the sender is
// checked by the connection before this runs. Private and public channels of one topic are apart, as
// on hosted Realtime, which publishes a private channel's broadcasts under "<tenant>-private:<topic>"
// and a public one's under "<tenant>:<topic>" (supabase/realtime lib/realtime/tenants.ex,
// tenant_topic/3): a public channel never hears, nor speaks into, a private one of the same name.
import { decodeBroadcastPush, encodeBroadcast } from './broadcast-codec.ts';
import type { Channel } from './channel.ts';
import type { ChannelRegistry } from './channel-registry.ts';
import { encodeRaw, type Frame } from './protocol.ts';

export type BroadcastBody =
  { kind: 'json'; event: string; payloadJson: string } | { kind: 'binary'; event: string; payload: Buffer };

/** Sends the broadcast to the topic's other channels; answers how many frames were handed out. */
export function fanOutBroadcast(registry: ChannelRegistry, from: Channel, body: BroadcastBody): number {
  let json: string | undefined;
  let binary: Buffer | null | undefined;
  const text = new Map<string, Buffer>();
  let frames = 0;
  for (const ch of registry.onTopic(from.topic)) {
    if (!ch.open || !ch.topicAllowed || ch.private !== from.private || (ch === from && !from.broadcastSelf)) continue;
    if (body.kind === 'binary') {
      // Raw bytes have no JSON form; only vsn 2.0.0 clients can receive them.
      if (ch.sink.vsn !== '2.0.0') continue;
      binary ??= encodeBroadcast(ch.topic, body.event, body.payload, false);
      if (binary) {
        ch.sink.send(binary);
        frames++;
      }
      continue;
    }
    json ??= `{"type":"broadcast","event":${JSON.stringify(body.event)},"payload":${body.payloadJson}}`;
    // Every channel here has the same topic: one encoded text frame per protocol version is shared by
    // all of them, so a fan-out holds one copy of the payload, not one per subscriber (issue 36 N4).
    let frame = text.get(ch.sink.vsn);
    if (!frame) text.set(ch.sink.vsn, (frame = Buffer.from(encodeRaw(ch.sink.vsn, null, null, ch.topic, 'broadcast', json))));
    ch.sink.send(frame, false);
    frames++;
  }
  return frames;
}

/** The payload's size as hosted measures it, near enough: its bytes on the wire. */
export function payloadBytes(body: BroadcastBody): number {
  return body.kind === 'binary' ? body.payload.length : Buffer.byteLength(body.payloadJson);
}

/** A binary (vsn 2.0.0) broadcast push, or null when it is malformed or its JSON payload is not JSON. */
export function binaryBroadcast(
  buf: Buffer,
): { from: Pick<Frame, 'joinRef' | 'ref' | 'topic'>; body: BroadcastBody } | null {
  const push = decodeBroadcastPush(buf);
  if (!push) return null;
  const from = { joinRef: push.joinRef, ref: push.ref, topic: push.topic };
  if (!push.json) return { from, body: { kind: 'binary', event: push.event, payload: push.payload } };
  const text = push.payload.toString('utf8');
  try {
    JSON.parse(text);
  } catch {
    return null;
  }
  return { from, body: { kind: 'json', event: push.event, payloadJson: text } };
}
