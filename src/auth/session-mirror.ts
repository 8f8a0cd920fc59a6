// Mirrors the supabase-js session into the IndexedDB record the service worker reads for a
// Background Sync flush (sync/background/session-store.ts). supabase-js keeps the session of record
// in localStorage and alone refreshes it; the mirror follows every auth change, and sign-out (or a
// lost session) deletes it, so a worker never acts for a user who has left this browser; the images the
// worker kept for that user go with it.
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { deleteAttachmentCaches } from '../../sw/attachment-cache.ts';
import { writeMirroredSession } from '../../sync/background/session-store.ts';

export function mirrorSessionForWorker(client: SupabaseClient, url: string, anonKey: string): void {
  let chain: Promise<void> = Promise.resolve();
  const write = (session: Session | null) => {
    const record =
      session && session.expires_at !== undefined
        ? { url, anonKey, userId: session.user.id, accessToken: session.access_token, expiresAt: session.expires_at }
        : null;
    // Serialised so a sign-out is never overtaken by an older write.
    chain = chain.then(() => writeMirroredSession(record)).catch((err: unknown) => console.warn('session mirror:', err));
    // The attachments the worker kept (sw/attachment-cache.ts) leave with the user.
    if (!record) void deleteAttachmentCaches().catch((err: unknown) => console.warn('attachment cache:', err));
  };
  client.auth.onAuthStateChange((_event, session) => write(session));
}
