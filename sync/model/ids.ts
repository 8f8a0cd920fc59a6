// Client-made ids (correlation ids, request ids). Injected so the fuzz test can be reproducible.
export type IdSource = () => string;

export const randomId: IdSource = () => globalThis.crypto.randomUUID();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `v` is a UUID in its text form (any version, either case). */
export function isUuid(v: unknown): v is string {
  return typeof v === 'string' && UUID.test(v);
}
