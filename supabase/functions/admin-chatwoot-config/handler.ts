// admin-chatwoot-config {api_base_url, account_id} -> {success, config}: saves the Chatwoot connection
// of /admin/chatwoot after checking the URL on the server (issue 16 item 5): https on public addresses
// only, unless CHATWOOT_ALLOW_PRIVATE_URLS=1 (guarded-fetch.ts). Refused URLs answer 400 with a Slovak
// reason the page shows. The row is written with the caller's own session, so RLS and the audit
// trigger see the super admin. Every request to Chatwoot checks the URL again (a row written past
// this function, or a name that now resolves elsewhere, is refused at use).
import { adminChatwootFunction } from '../_shared/chatwoot/admin-handler.ts';
import { allowPrivateUrls, checkChatwootUrl, ChatwootUrlRefused } from '../_shared/chatwoot/guarded-fetch.ts';
import { HttpError } from '../_shared/http.ts';
import { requiredString } from '../_shared/validate.ts';

export const ACCOUNT_ID_MESSAGE = 'Account ID musí byť kladné celé číslo (číslo účtu v Chatwoote).';

export default adminChatwootFunction(async ({ caller, body, env }) => {
  const raw = requiredString(body, 'api_base_url', 2000);
  const n = typeof body.account_id === 'string' && /^\s*\d+\s*$/.test(body.account_id) ? Number(body.account_id) : body.account_id;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) throw new HttpError(400, ACCOUNT_ID_MESSAGE);
  let url: URL;
  try {
    url = await checkChatwootUrl(raw, { allowPrivate: allowPrivateUrls(env) });
  } catch (err) {
    if (err instanceof ChatwootUrlRefused) throw new HttpError(400, err.message);
    throw err;
  }
  const values = { api_base_url: url.href.replace(/\/+$/, ''), account_id: n, updated_at: new Date().toISOString() };
  const saved = await caller.db
    .from('chatwoot_config')
    .upsert(values, { onConflict: 'singleton' })
    .select('id, api_base_url, account_id')
    .single();
  if (saved.error) throw new HttpError(500, `Could not save chatwoot_config: ${saved.error.message}`);
  return { config: saved.data };
});
