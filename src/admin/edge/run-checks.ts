// Runs the checks from the browser: POST {functions base}/{name} with a JSON body, the user's bearer
// token for protected functions, the body read as text only.
import { appEnv, supabase } from '../../supabase.ts';
import { CHECKS, httpResult, networkResult, type CheckContext, type CheckDefinition, type CheckResult } from './edge-checks.ts';

export const functionsBase = () => `${appEnv.supabaseUrl.replace(/\/+$/, '')}/functions/v1`;

export async function runCheck(def: CheckDefinition, ctx: CheckContext, token: string | null): Promise<CheckResult> {
  const started = performance.now();
  try {
    const res = await fetch(`${functionsBase()}/${def.name}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        apikey: appEnv.anonKey,
        ...(def.verifyJwt && token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(def.payload(ctx)),
    });
    const body = await res.text();
    return httpResult(def, res.status, body, Math.round(performance.now() - started));
  } catch (err) {
    return networkResult(def, err, Math.round(performance.now() - started));
  }
}

/** What the payloads need: the admin's e-mail and account, a Chatwoot conversation and inbox id. */
export async function checkContext(token: string | null): Promise<CheckContext> {
  const { data: userData } = await supabase.auth.getUser();
  const [account, inbox, conversations] = await Promise.all([
    supabase.rpc('current_account_id'),
    supabase.from('specialists').select('chatwoot_inbox_id').not('chatwoot_inbox_id', 'is', null).limit(1).maybeSingle<{ chatwoot_inbox_id: number }>(),
    fetch(`${functionsBase()}/admin-chatwoot-conversations`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: appEnv.anonKey, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: '{}',
    })
      .then(async (r) => (r.ok ? ((await r.json()) as { conversations?: { id?: unknown }[] }) : null))
      .catch(() => null),
  ]);
  const first = conversations?.conversations?.[0]?.id;
  return {
    email: userData.user?.email ?? 'admin-check@example.test',
    accountId: typeof account.data === 'string' ? account.data : null,
    conversationId: typeof first === 'number' ? first : null,
    inboxId: inbox.data?.chatwoot_inbox_id ?? null,
  };
}

export { CHECKS };
