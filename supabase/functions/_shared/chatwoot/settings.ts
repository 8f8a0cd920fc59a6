// Where Chatwoot is: the base URL and account id come from the chatwoot_config row (edited by super
// admins in /admin/chatwoot); the API token only from the function's environment, never the database.
import type { Db } from '../clients.ts';
import { HttpError } from '../http.ts';
import type { FunctionEnv } from '../types.ts';
import { allowPrivateUrls } from './guarded-fetch.ts';

export interface ChatwootSettings {
  baseUrl: string;
  accountId: number;
  token: string;
  /** CHATWOOT_ALLOW_PRIVATE_URLS: the base URL may be http and on a private network (guarded-fetch.ts). */
  allowPrivate: boolean;
}

export const NOT_CONFIGURED = 'Chatwoot nie je nakonfigurovaný (chýba API URL, Account ID alebo CHATWOOT_API_TOKEN)';

export async function loadChatwootSettings(service: Db, env: FunctionEnv): Promise<ChatwootSettings> {
  const { data, error } = await service
    .from('chatwoot_config')
    .select('api_base_url, account_id')
    .order('updated_at', { ascending: false })
    .limit(1)
    .maybeSingle<{ api_base_url: string | null; account_id: string | number | null }>();
  if (error) throw new HttpError(500, 'Could not read chatwoot_config');
  const token = env.CHATWOOT_API_TOKEN;
  const accountId = Number(data?.account_id);
  if (!data?.api_base_url || !Number.isInteger(accountId) || accountId <= 0 || !token) {
    throw new HttpError(503, NOT_CONFIGURED);
  }
  return { baseUrl: data.api_base_url.trim().replace(/\/+$/, ''), accountId, token, allowPrivate: allowPrivateUrls(env) };
}
