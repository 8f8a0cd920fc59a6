// Client-made ids (correlation ids, request ids). Injected so the fuzz test can be reproducible.
export type IdSource = () => string;

export const randomId: IdSource = () => globalThis.crypto.randomUUID();
