// What an auth link left in the address: tokens in the hash (implicit flow: magic link, recovery,
// sign-up), a PKCE ?code=, an error (in the hash or the query), or nothing.
export type LinkParams =
  | { kind: 'tokens'; accessToken: string; refreshToken: string; type: string | null }
  | { kind: 'code'; code: string }
  | { kind: 'error'; code: string | null; description: string | null }
  | { kind: 'none' };

export function readLinkParams(href: string): LinkParams {
  const url = new URL(href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const query = url.searchParams;
  const error = hash.get('error') ?? query.get('error') ?? hash.get('error_code') ?? query.get('error_code');
  if (error) {
    return {
      kind: 'error',
      code: hash.get('error_code') ?? query.get('error_code') ?? error,
      description: hash.get('error_description') ?? query.get('error_description'),
    };
  }
  const accessToken = hash.get('access_token');
  const refreshToken = hash.get('refresh_token');
  if (accessToken && refreshToken) return { kind: 'tokens', accessToken, refreshToken, type: hash.get('type') };
  const code = query.get('code');
  if (code) return { kind: 'code', code };
  return { kind: 'none' };
}

/** The same address without auth parameters, for history.replaceState. */
export function withoutLinkParams(href: string): string {
  const url = new URL(href);
  for (const key of ['code', 'error', 'error_code', 'error_description', 'type']) url.searchParams.delete(key);
  url.hash = '';
  return `${url.pathname}${url.search}`;
}
