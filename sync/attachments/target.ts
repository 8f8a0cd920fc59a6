// R12.4: the default upload target and storage estimate (engine-deps.ts).
import type { SupabaseClient } from '@supabase/supabase-js';
import type { StorageEstimate } from './limits.ts';
import type { UploadTarget } from './uploader.ts';

/**
 * TUS at `<project>/storage/v1/upload/resumable` (Supabase's docs for resumable uploads), with the
 * session's access token. supabase-js keeps its storage address in a protected field (`storageUrl`,
 * SupabaseClient.ts); an app that wants another address passes `uploads` itself.
 */
export function supabaseUploadTarget(supabase: SupabaseClient, projectUrl?: string): UploadTarget | null {
  const base = projectUrl ? `${projectUrl.replace(/\/+$/, '')}/storage/v1` : (supabase as unknown as { storageUrl?: URL | string }).storageUrl?.toString();
  if (!base) return null;
  return {
    endpoint: `${base.replace(/\/+$/, '')}/upload/resumable`,
    async headers() {
      // A client made with the `accessToken` option has no auth to ask (supabase-js throws): then
      // no token is sent and storage refuses the upload (400), which waits for the next try.
      const token = await supabase.auth
        .getSession()
        .then(({ data }) => data.session?.access_token)
        .catch(() => undefined);
      return token ? { authorization: `Bearer ${token}` } : {};
    },
  };
}

/** navigator.storage.estimate when the platform has it (browsers; not Node). */
export function defaultStorageEstimate(): StorageEstimate | null {
  const storage = (globalThis as { navigator?: { storage?: { estimate?: () => Promise<{ quota?: number; usage?: number }> } } }).navigator?.storage;
  return storage?.estimate ? () => storage.estimate!() : null;
}
