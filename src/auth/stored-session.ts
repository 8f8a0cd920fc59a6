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
