import type { Session } from '@supabase/supabase-js';

// Whether this browser holds a supabase-js session (its default localStorage key `sb-<ref>-auth-token`),
// read without loading supabase-js: the entry uses it to start fetching the signed-in area at once.
export function hasStoredSession(storage: Pick<Storage, 'length' | 'key'> | null = safeLocalStorage()): boolean {
  if (!storage) return false;
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith('sb-') && key.endsWith('-auth-token')) return true;
  }
  return false;
}

function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The session supabase-js stored in this browser, read without loading supabase-js, so the signed-in
 * area (and the chat list, from IndexedDB) can render before the client has loaded. Only a shape with
 * tokens and a user id counts; anything else is null and the app waits for the client as before. The
 * client's first event (INITIAL_SESSION) replaces it: a refreshed session, or null if it was rejected.
 */
export function readStoredSession(storage: Pick<Storage, 'length' | 'key' | 'getItem'> | null = safeLocalStorage()): Session | null {
  if (!storage) return null;
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (!key?.startsWith('sb-') || !key.endsWith('-auth-token')) continue;
    try {
      const s = JSON.parse(storage.getItem(key) ?? 'null') as Partial<Session> | null;
      if (s && typeof s.access_token === 'string' && typeof s.refresh_token === 'string' && typeof s.user?.id === 'string') return s as Session;
    } catch {
      return null;
    }
  }
  return null;
}
