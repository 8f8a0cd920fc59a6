// realtime-js (vsn 2.0.0) sends `broadcast` pushes as binary frames and decodes binary broadcasts.
// Client -> server, kind 3 ("user broadcast push"):
//   u8 kind, u8 joinRefLen, u8 refLen, u8 topicLen, u8 eventLen, u8 metaLen, u8 encoding,
//   joinRef, ref, topic, event, meta, payload          (encoding 1 = JSON text, 0 = raw bytes)
// Server -> client, kind 4 ("user broadcast"):
//   u8 kind, u8 topicLen, u8 eventLen, u8 metaLen, u8 encoding, topic, event, meta, payload
// Invariant: decode never throws; a truncated or unknown frame is null.

export interface BinaryBroadcastPush {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  /** JSON text when json is true, else raw bytes. */
  payload: Buffer;
  json: boolean;
}

const PUSH_KIND = 3;
const BROADCAST_KIND = 4;

export function decodeBroadcastPush(buf: Buffer): BinaryBroadcastPush | null {
  if (buf.length < 7 || buf[0] !== PUSH_KIND) return null;
  const lens = [buf[1]!, buf[2]!, buf[3]!, buf[4]!, buf[5]!];
  const encoding = buf[6]!;
  let offset = 7;
  const parts: string[] = [];
  for (const len of lens) {
    if (offset + len > buf.length) return null;
    // The client writes each character's code unit into one byte, so latin1 reverses it exactly.
    parts.push(buf.toString('latin1', offset, offset + len));
    offset += len;
  }
  const [joinRef, ref, topic, event] = parts as [string, string, string, string, string];
  return {
    joinRef: joinRef || null,
    ref: ref || null,
    topic,
    event,
    payload: buf.subarray(offset),
    json: encoding === 1,
  };
}

/** Null when a field does not fit the one-byte length prefix. */
export function encodeBroadcast(topic: string, event: string, payload: Buffer, json: boolean): Buffer | null {
  const t = Buffer.from(topic, 'utf8');
  const e = Buffer.from(event, 'utf8');
  if (t.length > 255 || e.length > 255) return null;
  const header = Buffer.from([BROADCAST_KIND, t.length, e.length, 0, json ? 1 : 0]);
  return Buffer.concat([header, t, e, payload]);
}
