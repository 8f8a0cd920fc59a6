// Phoenix channel frames as @supabase/realtime-js speaks them.
// vsn 2.0.0: text frames are JSON arrays [join_ref, ref, topic, event, payload]; vsn 1.0.0: JSON objects
// {join_ref, ref, topic, event, payload}. Invariant: decode never throws; anything that is not a
// well-formed frame comes back as null and the caller drops it.

export type Vsn = '1.0.0' | '2.0.0';
export const SUPPORTED_VSN: readonly Vsn[] = ['1.0.0', '2.0.0'];

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export interface Frame {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: JsonObject;
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function refOf(v: unknown): string | null | undefined {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function frameOf(
  joinRef: unknown,
  ref: unknown,
  topic: unknown,
  event: unknown,
  payload: unknown,
): Frame | null {
  const j = refOf(joinRef);
  const r = refOf(ref);
  if (j === undefined || r === undefined || typeof topic !== 'string' || typeof event !== 'string')
    return null;
  if (!isObject(payload)) return null;
  return { joinRef: j, ref: r, topic, event, payload };
}

export function decodeText(vsn: Vsn, text: string): Frame | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (vsn === '2.0.0') {
    if (!Array.isArray(parsed) || parsed.length !== 5) return null;
    const [joinRef, ref, topic, event, payload] = parsed as unknown[];
    return frameOf(joinRef, ref, topic, event, payload);
  }
  if (!isObject(parsed)) return null;
  return frameOf(parsed.join_ref, parsed.ref, parsed.topic, parsed.event, parsed.payload);
}

/**
 * Encodes a frame whose payload is already JSON text. Fan-out serializes a change once and splices it
 * into every subscriber's frame, so the per-subscriber cost is string concatenation.
 */
export function encodeRaw(
  vsn: Vsn,
  joinRef: string | null,
  ref: string | null,
  topic: string,
  event: string,
  payloadJson: string,
): string {
  const j = JSON.stringify(joinRef);
  const r = JSON.stringify(ref);
  const t = JSON.stringify(topic);
  const e = JSON.stringify(event);
  if (vsn === '2.0.0') return `[${j},${r},${t},${e},${payloadJson}]`;
  return `{"join_ref":${j},"ref":${r},"topic":${t},"event":${e},"payload":${payloadJson}}`;
}

export function encode(
  vsn: Vsn,
  f: { joinRef: string | null; ref: string | null; topic: string; event: string; payload: unknown },
): string {
  return encodeRaw(vsn, f.joinRef, f.ref, f.topic, f.event, JSON.stringify(f.payload));
}

/** Phoenix's phx_reply to the request `req` (same join ref, ref and topic); `response` may be any JSON. */
export function reply(vsn: Vsn, req: Pick<Frame, 'joinRef' | 'ref' | 'topic'>, status: 'ok' | 'error', response: unknown): string {
  return encode(vsn, {
    joinRef: req.joinRef,
    ref: req.ref,
    topic: req.topic,
    event: 'phx_reply',
    payload: { status, response },
  });
}

export function replyOk(vsn: Vsn, req: Pick<Frame, 'joinRef' | 'ref' | 'topic'>, response: unknown = {}): string {
  return reply(vsn, req, 'ok', response);
}

export function replyError(vsn: Vsn, req: Pick<Frame, 'joinRef' | 'ref' | 'topic'>, reason: string): string {
  return reply(vsn, req, 'error', { reason });
}

/** Supabase's `system` message: extension is 'postgres_changes' or 'system'. */
export function systemMessage(
  vsn: Vsn,
  joinRef: string | null,
  topic: string,
  extension: 'postgres_changes' | 'system',
  status: 'ok' | 'error',
  message: string,
): string {
  const channel = topic.replace(/^realtime:/i, '');
  return encode(vsn, {
    joinRef,
    ref: null,
    topic,
    event: 'system',
    payload: { extension, status, message, channel },
  });
}
