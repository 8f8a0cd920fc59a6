// test-runner "edge": the nine function checks of admin-area.md section 7, made from the server with
// the caller's token. They change no live data (issue 21 admin item 3): the Chatwoot conversation
// checks work on the conversation made for checking (admin-chatwoot-diagnostics), send posts there
// ({diagnostics: true}), and auth-link is called with an empty body, which it refuses (400) before it
// could create a user or mail anybody. A check of an integration that is not configured (503 with the
// documented "not configured" reason) is reported as such, not as a failure (item 11).
import { publicKey } from '../api-keys.ts';
import type { Caller } from '../caller.ts';
import { NOT_CONFIGURED } from '../chatwoot/settings.ts';
import { SECRET_NOT_CONFIGURED } from '../chatwoot/webhook-auth.ts';
import type { FunctionEnv } from '../types.ts';
import { assert, NotConfigured, runChecks, type Check, type SuiteResult } from './suite.ts';

interface EdgeCheck {
  name: string;
  verifyJwt: boolean;
  expectedStatus: number;
  /** null: the check cannot run (the reason is in diagnosticsProblem). */
  payload: () => Record<string, unknown> | null;
}

/** The documented "this integration is not set up" answers (supabase/functions/README.md). */
export function isNotConfigured(status: number, body: unknown): boolean {
  const error = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  return status === 503 && (error === NOT_CONFIGURED || error === SECRET_NOT_CONFIGURED);
}

async function post(env: FunctionEnv, name: string, token: string, payload: unknown): Promise<{ status: number; text: string; body: unknown }> {
  const res = await fetch(`${env.SUPABASE_URL}/functions/v1/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(payload),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // keep null: a non-JSON answer is judged by its status
  }
  return { status: res.status, text, body };
}

export async function edgeSuite(caller: Caller, env: FunctionEnv): Promise<SuiteResult> {
  const diag = await post(env, 'admin-chatwoot-diagnostics', caller.token, {});
  const diagBody = diag.body as { conversation_id?: unknown; error?: unknown } | null;
  const cwId = diag.status === 200 && typeof diagBody?.conversation_id === 'number' ? diagBody.conversation_id : null;
  const diagNotConfigured = isNotConfigured(diag.status, diag.body);
  const onDiag = (make: (id: number) => Record<string, unknown>) => () => (cwId === null ? null : make(cwId));
  const checks: EdgeCheck[] = [
    { name: 'test-function', verifyJwt: false, expectedStatus: 200, payload: () => ({ message: 'test-runner' }) },
    { name: 'auth-link', verifyJwt: false, expectedStatus: 400, payload: () => ({}) },
    { name: 'chatwoot-webhook', verifyJwt: false, expectedStatus: 200, payload: () => ({ webhook_test: true }) },
    { name: 'admin-chatwoot-conversations', verifyJwt: true, expectedStatus: 200, payload: onDiag((id) => ({ conversation_id: id })) },
    { name: 'admin-chatwoot-inboxes', verifyJwt: true, expectedStatus: 200, payload: () => ({}) },
    { name: 'admin-chatwoot-assign', verifyJwt: true, expectedStatus: 200, payload: onDiag((id) => ({ conversation_id: id, assignee_id: null })) },
    { name: 'admin-chatwoot-send', verifyJwt: true, expectedStatus: 200, payload: onDiag(() => ({ diagnostics: true, content: 'Diagnostika z test-runnera' })) },
    {
      name: 'admin-chatwoot-set-custom-attributes',
      verifyJwt: true,
      expectedStatus: 200,
      payload: onDiag((id) => ({ conversation_id: id, attributes: { poradna_diagnostics: true, checked_at: new Date().toISOString() } })),
    },
    { name: 'admin-chatwoot-toggle-status', verifyJwt: true, expectedStatus: 200, payload: onDiag((id) => ({ conversation_id: id, status: 'open' })) },
  ];
  const asCheck = (c: EdgeCheck): Check => ({
    name: `${c.name} (${c.verifyJwt ? 'JWT Required' : 'Public'})`,
    run: async () => {
      const payload = c.payload();
      if (payload === null) {
        if (diagNotConfigured) throw new NotConfigured('Chatwoot');
        throw new Error(`diagnostická konverzácia nie je k dispozícii: ${diag.status} ${(typeof diagBody?.error === 'string' ? diagBody.error : diag.text).slice(0, 200)}`);
      }
      const r = await post(env, c.name, c.verifyJwt ? caller.token : publicKey(env), payload);
      if (isNotConfigured(r.status, r.body)) throw new NotConfigured(String((r.body as { error: string }).error));
      assert(r.status === c.expectedStatus, `Expected ${c.expectedStatus}, got ${r.status}: ${r.text.slice(0, 200)}`);
      return `${r.status}, ${r.text.length} B`;
    },
  });
  return runChecks('Edge: funkcie', checks.map(asCheck));
}
