// Checks of the Chatwoot settings form before anything is sent (issue 21 admin item 9). The server
// (admin-chatwoot-config) checks again and more (https, public address, DNS); these catch the typing
// mistakes with a specific Slovak message: 'not a url' never reaches a success toast.
import { admin } from '../../text/admin.ts';

export type ConfigCheck = { ok: true; url: string; accountId: number } | { ok: false; field: 'url' | 'accountId' | 'both'; error: string };

export function validateConfig(url: string, accountId: string): ConfigCheck {
  const u = url.trim();
  const a = accountId.trim();
  if (u === '' || a === '') return { ok: false, field: 'both', error: admin.chatwoot.required };
  let parsed: URL;
  try {
    parsed = new URL(u);
  } catch {
    return { ok: false, field: 'url', error: admin.chatwoot.urlInvalid };
  }
  if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.hostname === '') return { ok: false, field: 'url', error: admin.chatwoot.urlInvalid };
  if (!/^\d+$/.test(a) || !Number.isSafeInteger(Number(a)) || Number(a) <= 0) return { ok: false, field: 'accountId', error: admin.chatwoot.accountIdInvalid };
  return { ok: true, url: u, accountId: Number(a) };
}

/** A Chatwoot conversation id (display id): a positive integer. */
export const isChatwootConversationId = (v: string) => /^\d+$/.test(v) && Number(v) > 0 && Number.isSafeInteger(Number(v));

/** Our conversation id: a UUID. */
export const isUuid = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
