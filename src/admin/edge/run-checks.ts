// Runs the checks from the browser: POST {functions base}/{name} with a JSON body, the user's bearer
// token for protected functions, the body read as text only.
import { appEnv } from '../../supabase.ts';
import { admin } from '../../text/admin.ts';
import { CHECKS, httpResult, isNotConfigured, networkResult, notRunResult, type CheckContext, type CheckDefinition, type CheckResult } from './edge-checks.ts';

export const functionsBase = () => `${appEnv.supabaseUrl.replace(/\/+$/, '')}/functions/v1`;

export async function runCheck(def: CheckDefinition, ctx: CheckContext, token: string | null): Promise<CheckResult> {
  const payload = def.payload(ctx);
  if (payload === null) return notRunResult(def, ctx.diagnosticsProblem ?? { notConfigured: false, message: 'Chýba diagnostická konverzácia' });
  const started = performance.now();
  try {
    const res = await fetch(`${functionsBase()}/${def.name}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        apikey: appEnv.anonKey,
        ...(def.verifyJwt && token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(payload),
    });
    const body = await res.text();
    return httpResult(def, res.status, body, Math.round(performance.now() - started));
  } catch (err) {
    return networkResult(def, err, Math.round(performance.now() - started));
  }
}

/** The conversation made for checking (created or reused by admin-chatwoot-diagnostics). */
export async function checkContext(token: string | null): Promise<CheckContext> {
  try {
    const res = await fetch(`${functionsBase()}/admin-chatwoot-diagnostics`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', apikey: appEnv.anonKey, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: '{}',
    });
    const text = await res.text();
    const id = res.ok ? (JSON.parse(text) as { conversation_id?: unknown }).conversation_id : undefined;
    if (typeof id === 'number') return { diagnosticsConversationId: id, diagnosticsProblem: null };
    return { diagnosticsConversationId: null, diagnosticsProblem: { notConfigured: isNotConfigured(res.status, text), message: admin.edge.noDiagnostics(`${res.status} ${text.slice(0, 200)}`) } };
  } catch (err) {
    return { diagnosticsConversationId: null, diagnosticsProblem: { notConfigured: false, message: admin.edge.noDiagnostics(err instanceof Error ? err.message : String(err)) } };
  }
}

export { CHECKS };
