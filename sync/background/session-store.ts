// The signed-in session as the service worker can see it. The page keeps supabase-js' own session in
// localStorage (which a worker cannot read) and mirrors the part a background flush needs into this
// small IndexedDB store on every auth change; sign-out deletes it. Invariant: the worker only ever
// READS this record and never refreshes the token, so one refresh token is only ever used by pages
// (auth-js serialises those under its own lock) and refresh-token reuse detection cannot trip.
import { runKv } from './worker-db.ts';

export const SESSION_KEY = 'session';
/** The chat list's paint snapshot (sw/list-snapshot.ts) lives beside the session and dies with it. */
export const LIST_SNAPSHOT_KEY = 'list-snapshot';

export interface MirroredSession {
  url: string;
  anonKey: string;
  userId: string;
  accessToken: string;
  /** Unix seconds, as supabase-js reports it. */
  expiresAt: number;
}

/** Writes the session; null (sign-out, lost session) also deletes the list snapshot, in the same transaction. */
export async function writeMirroredSession(s: MirroredSession | null): Promise<void> {
  await runKv('readwrite', (store) => {
    if (s) return store.put(s, SESSION_KEY);
    store.delete(LIST_SNAPSHOT_KEY);
    return store.delete(SESSION_KEY);
  });
}

export async function readMirroredSession(): Promise<MirroredSession | null> {
  return asMirroredSession(await runKv<unknown>('readonly', (store) => store.get(SESSION_KEY)));
}

/** A stored value as a session, or null when it is none (absent, or an older shape). */
export function asMirroredSession(value: unknown): MirroredSession | null {
  const v = value as Partial<MirroredSession> | null | undefined;
  return v && typeof v.accessToken === 'string' && typeof v.userId === 'string' ? (v as MirroredSession) : null;
}

/** A token the server will still accept for a while (the worker never refreshes one). */
export function usableToken(s: MirroredSession, nowMs: number, marginMs = 30_000): boolean {
  return s.expiresAt * 1000 - nowMs > marginMs;
}
