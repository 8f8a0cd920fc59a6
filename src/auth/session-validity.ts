// user-area.md section 3: a session is valid only if it has an access token and an expiry in the future.
export interface SessionLike {
  access_token?: string | null | undefined;
  expires_at?: number | null | undefined;
}

export function isSessionValid(session: SessionLike | null | undefined, nowMs: number = Date.now()): boolean {
  if (!session?.access_token) return false;
  const expiresAt = session.expires_at;
  return typeof expiresAt === 'number' && expiresAt * 1000 > nowMs;
}
