// The control panel's five checks (admin-area.md sections 4, 7, 8): api, webhook, schema,
// specialists, richContent. Each answers a status (ok, warning, error) and a message.
import { admin } from '../../text/admin.ts';
import { appEnv, supabase } from '../../supabase.ts';
import { FunctionCallError, invokeFunction } from '../lib/functions.ts';
import { loadRichMessages } from './chatwoot-data.ts';

export type CheckName = 'api' | 'webhook' | 'schema' | 'specialists' | 'richContent';
/** notConfigured: the integration is not set up on this install; not a failure (issue 21 admin 11). */
export type CheckStatus = 'unchecked' | 'checking' | 'ok' | 'warning' | 'error' | 'notConfigured';
export interface CheckOutcome {
  status: CheckStatus;
  message: string;
}

export const CHECK_NAMES: readonly CheckName[] = ['api', 'webhook', 'schema', 'specialists', 'richContent'];
export const RICH_SAMPLE = 5;
export const SCHEMA_TABLES = ['conversations', 'messages', 'integration_events', 'specialists', 'chatwoot_config'] as const;

const ok = (message: string): CheckOutcome => ({ status: 'ok', message });
const warning = (message: string): CheckOutcome => ({ status: 'warning', message });
const error = (message: string): CheckOutcome => ({ status: 'error', message });
const notConfigured = (): CheckOutcome => ({ status: 'notConfigured', message: admin.chatwoot.notConfiguredText });

/** The functions' documented "not set up" answers (supabase/functions/README.md). */
const CHATWOOT_NOT_CONFIGURED = 'Chatwoot nie je nakonfigurovaný (chýba API URL, Account ID alebo CHATWOOT_API_TOKEN)';
const SECRET_NOT_CONFIGURED = 'Webhook secret is not configured';

/** The functions' "Chatwoot is not set up on this install" refusal (503 with its documented reason). */
export function isChatwootNotConfigured(err: unknown): boolean {
  return err instanceof FunctionCallError && err.status === 503 && err.message === CHATWOOT_NOT_CONFIGURED;
}

/**
 * Whether Chatwoot is set up, asked of the server (only it holds the API token): false only for the
 * documented not-configured refusal; any other answer or failure is left to the action's own path.
 * Issue 37 admin 2: an action names this cause first, before its own preconditions.
 */
export async function chatwootConfigured(): Promise<boolean> {
  try {
    await invokeFunction<unknown>('admin-chatwoot-inboxes');
    return true;
  } catch (err) {
    return !isChatwootNotConfigured(err);
  }
}

/** Classifies the inboxes reply or failure into the spec's outcome kinds. */
export function apiOutcome(result: { data: unknown } | { error: unknown }): CheckOutcome {
  if ('error' in result) {
    const err = result.error;
    if (err instanceof FunctionCallError) {
      if (err.status === null) return error(admin.chatwoot.networkError(err.message));
      if (isChatwootNotConfigured(err)) return notConfigured();
      if (err.status === 404 || err.status === 503 || err.status >= 500 && err.status !== 502) return error(admin.chatwoot.apiUnreachable);
      if (err.status === 401 || err.status === 403) return error(admin.chatwoot.apiUnauthorized);
      if (err.status === 502) return error(admin.chatwoot.apiChatwoot(err.message));
      return error(admin.chatwoot.apiError(err.message));
    }
    return error(admin.chatwoot.networkError(err instanceof Error ? err.message : String(err)));
  }
  const data = result.data as { success?: unknown; inboxes?: unknown; error?: unknown } | null;
  if (!data || typeof data !== 'object') return error(admin.chatwoot.apiUnexpected);
  if (data.success === false) return error(admin.chatwoot.apiChatwoot(typeof data.error === 'string' ? data.error : ''));
  if (!Array.isArray(data.inboxes)) return error(admin.chatwoot.apiUnexpected);
  return ok(admin.chatwoot.apiOk(data.inboxes.length));
}

async function apiCheck(): Promise<CheckOutcome> {
  try {
    return apiOutcome({ data: await invokeFunction<unknown>('admin-chatwoot-inboxes') });
  } catch (err) {
    return apiOutcome({ error: err });
  }
}

/**
 * The probe meets the same secret check as a real delivery (issue 21 admin 4): 200 only when the
 * configured secret can authenticate deliveries; a missing secret is "not configured", a too short one
 * an error with the function's reason.
 */
export function webhookOutcome(status: number, body: unknown): CheckOutcome {
  const message = body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : '';
  if (status >= 200 && status < 300) return ok(admin.chatwoot.webhookOk(status));
  if (status === 503 && message === SECRET_NOT_CONFIGURED) return notConfigured();
  if (message !== '') return error(admin.chatwoot.webhookProblem(message));
  return error(admin.chatwoot.webhookFailed(String(status)));
}

async function webhookCheck(): Promise<CheckOutcome> {
  try {
    const res = await fetch(`${appEnv.supabaseUrl.replace(/\/+$/, '')}/functions/v1/chatwoot-webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: appEnv.anonKey },
      body: JSON.stringify({ webhook_test: true }),
    });
    const body: unknown = await res.json().catch(() => null);
    return webhookOutcome(res.status, body);
  } catch (err) {
    return error(admin.chatwoot.networkError(err instanceof Error ? err.message : String(err)));
  }
}

async function schemaCheck(): Promise<CheckOutcome> {
  const results = await Promise.all(
    SCHEMA_TABLES.map(async (t) => {
      try {
        const res = await supabase.from(t).select('*').limit(1);
        return res.error ? t : null;
      } catch {
        return t;
      }
    }),
  );
  const failed = results.filter((t): t is (typeof SCHEMA_TABLES)[number] => t !== null);
  return failed.length === 0 ? ok(admin.chatwoot.schemaOk) : error(admin.chatwoot.schemaFailed(failed.join(', ')));
}

export function specialistsOutcome(rows: readonly { name: string; chatwoot_inbox_id: number | null }[]): CheckOutcome {
  const missing = rows.filter((r) => r.chatwoot_inbox_id === null);
  return missing.length > 0 ? warning(admin.chatwoot.specialistsMissing(missing.map((r) => r.name).join(', '))) : ok(admin.chatwoot.specialistsOk(rows.length));
}

async function specialistsCheck(): Promise<CheckOutcome> {
  // Inbox IDs mean nothing without Chatwoot: then this check is not configured, like the API check.
  if (!(await chatwootConfigured())) return notConfigured();
  const res = await supabase.from('specialists').select('name, chatwoot_inbox_id');
  if (res.error) return error(res.error.message);
  return specialistsOutcome(res.data);
}

async function richContentCheck(): Promise<CheckOutcome> {
  try {
    const rows = await loadRichMessages('', RICH_SAMPLE);
    return rows.length > 0 ? ok(admin.chatwoot.richOk(rows.length)) : warning(admin.chatwoot.richNone);
  } catch (err) {
    return error(err instanceof Error ? err.message : String(err));
  }
}

export const RUNNERS: Record<CheckName, () => Promise<CheckOutcome>> = {
  api: apiCheck,
  webhook: webhookCheck,
  schema: schemaCheck,
  specialists: specialistsCheck,
  richContent: richContentCheck,
};

/** The seven functions whose deployment the page checks by HEAD; any status but 404 is deployed. */
export const HEAD_FUNCTIONS = [
  'admin-chatwoot-assign',
  'admin-chatwoot-conversations',
  'admin-chatwoot-inboxes',
  'admin-chatwoot-send',
  'admin-chatwoot-set-custom-attributes',
  'admin-chatwoot-toggle-status',
  'chatwoot-webhook',
] as const;

export async function headFunction(name: string): Promise<boolean> {
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  try {
    const res = await fetch(`${appEnv.supabaseUrl.replace(/\/+$/, '')}/functions/v1/${name}`, {
      method: 'HEAD',
      headers: { apikey: appEnv.anonKey, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    });
    return res.status !== 404;
  } catch {
    return false;
  }
}
