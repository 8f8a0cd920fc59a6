// A signed URL for a stored attachment, made with the viewer's session (issue 38). The browser build
// has no storage-js (src/vendor/storage-js-stub.ts keeps it out of the entry chunk), so this is the
// one request of storage-js' createSignedUrl, made the same way: POST
// `<project>/storage/v1/object/sign/<bucket>/<path>` with `{ expiresIn }`, the project key as
// `apikey` and the session's access token as bearer; the answer's `signedURL` is appended to the
// storage address and the whole passed through `encodeURI` (@supabase/storage-js
// StorageFileApi.createSignedUrl; server: supabase/storage src/http/routes/object/getSignedURL.ts).
// Storage's RLS decides: an object the viewer may not read answers 4xx, and this gives null.

export async function createSignedObjectUrl(bucket: string, path: string, expiresIn: number): Promise<string | null> {
  // Loaded on first use: supabase-js is not in the chat's first bundle (the engine brings it later).
  const { supabase, appEnv } = await import('../../../supabase.ts');
  const token = (await supabase.auth.getSession()).data.session?.access_token ?? appEnv.anonKey;
  const storage = `${appEnv.supabaseUrl.replace(/\/+$/, '')}/storage/v1`;
  const res = await fetch(`${storage}/object/sign/${bucket}/${path.replace(/^\/+/, '')}`, {
    method: 'POST',
    headers: { apikey: appEnv.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ expiresIn }),
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) return null;
  const body = (await res.json().catch(() => null)) as { signedURL?: unknown } | null;
  return typeof body?.signedURL === 'string' ? encodeURI(`${storage}${body.signedURL}`) : null;
}
