// Turns the parameters of an auth link into a session: setSession from hash tokens, or the PKCE code
// exchange. One attempt per address: React may mount the page twice, and a code works only once.
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import { readLinkParams } from './link-params.ts';

export type LinkAuthClient = Pick<SupabaseClient['auth'], 'setSession' | 'exchangeCodeForSession'>;

export type LinkOutcome =
  | { ok: true; session: Session; type: string | null }
  | { ok: false; reason: 'invalid' | 'missing' };

const attempts = new Map<string, Promise<LinkOutcome>>();

export function establishSessionFromLink(client: LinkAuthClient, href: string): Promise<LinkOutcome> {
  let attempt = attempts.get(href);
  if (!attempt) {
    attempt = run(client, href);
    attempts.set(href, attempt);
  }
  return attempt;
}

async function run(client: LinkAuthClient, href: string): Promise<LinkOutcome> {
  const params = readLinkParams(href);
  try {
    if (params.kind === 'tokens') {
      const { data, error } = await client.setSession({ access_token: params.accessToken, refresh_token: params.refreshToken });
      return !error && data.session ? { ok: true, session: data.session, type: params.type } : { ok: false, reason: 'invalid' };
    }
    if (params.kind === 'code') {
      const { data, error } = await client.exchangeCodeForSession(params.code);
      return !error && data.session ? { ok: true, session: data.session, type: null } : { ok: false, reason: 'invalid' };
    }
  } catch (err) {
    console.error('auth link:', err);
    return { ok: false, reason: 'invalid' };
  }
  return { ok: false, reason: params.kind === 'error' ? 'invalid' : 'missing' };
}
