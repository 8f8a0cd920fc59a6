// The session read from localStorage without supabase-js: it lets the list render before the client
// has loaded, so only a complete session counts, and anything malformed means "wait for the client".
import { describe, expect, it } from 'vitest';
import { hasStoredSession, readStoredSession } from '../../../src/auth/stored-session.ts';

function storage(entries: Record<string, string>): Pick<Storage, 'length' | 'key' | 'getItem'> {
  const keys = Object.keys(entries);
  return { length: keys.length, key: (i) => keys[i] ?? null, getItem: (k) => entries[k] ?? null };
}

const session = { access_token: 'a.b.c', refresh_token: 'r', expires_at: 2_000_000_000, user: { id: 'u-1', email: 'demo@poradna.test' } };

describe('stored session', () => {
  it('reads the supabase-js session under sb-<ref>-auth-token', () => {
    const s = storage({ other: 'x', 'sb-localhost-auth-token': JSON.stringify(session) });
    expect(hasStoredSession(s)).toBe(true);
    expect(readStoredSession(s)?.user.id).toBe('u-1');
  });

  it('answers null for no session, a foreign key, malformed JSON or a session without tokens or user', () => {
    expect(readStoredSession(storage({}))).toBeNull();
    expect(readStoredSession(storage({ 'sb-x-auth-token-code-verifier': JSON.stringify(session) }))).toBeNull();
    expect(readStoredSession(storage({ 'sb-x-auth-token': '{not json' }))).toBeNull();
    expect(readStoredSession(storage({ 'sb-x-auth-token': JSON.stringify({ ...session, refresh_token: undefined }) }))).toBeNull();
    expect(readStoredSession(storage({ 'sb-x-auth-token': JSON.stringify({ ...session, user: null }) }))).toBeNull();
    expect(readStoredSession(storage({ 'sb-x-auth-token': 'null' }))).toBeNull();
    expect(readStoredSession(null)).toBeNull();
  });
});
