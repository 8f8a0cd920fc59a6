// The nine POST checks of /admin/edge-functions (admin-area.md sections 6, 7, 9) and the pure rules
// of their results: success only on the expected status, bodies cut to 500 characters, the summary;
// a documented "not configured" answer is its own outcome, not a failure.

/**
 * What the payloads need. The Chatwoot conversation checks use only the conversation made for checking
 * (admin-chatwoot-diagnostics), never a user's (issue 21 admin item 3); without it they do not run.
 */
export interface CheckContext {
  diagnosticsConversationId: number | null;
  /** Why there is no diagnostics conversation: Chatwoot not configured, or another failure. */
  diagnosticsProblem: { notConfigured: boolean; message: string } | null;
}

export interface CheckDefinition {
  name: string;
  verifyJwt: boolean;
  expectedStatus: number;
  /** null: the check needs the diagnostics conversation and there is none. */
  payload: (ctx: CheckContext) => Record<string, unknown> | null;
}

const onDiagnostics =
  (make: (id: number) => Record<string, unknown>) =>
  (c: CheckContext): Record<string, unknown> | null =>
    c.diagnosticsConversationId === null ? null : make(c.diagnosticsConversationId);

export const CHECKS: readonly CheckDefinition[] = [
  { name: 'test-function', verifyJwt: false, expectedStatus: 200, payload: () => ({ message: 'Admin edge check' }) },
  // An empty body: auth-link refuses it (400 email is required) before it could create a user or send
  // a mail, which proves it is deployed and answering without mailing anybody (issue 21 admin item 3).
  { name: 'auth-link', verifyJwt: false, expectedStatus: 400, payload: () => ({}) },
  { name: 'chatwoot-webhook', verifyJwt: false, expectedStatus: 200, payload: () => ({ webhook_test: true }) },
  { name: 'admin-chatwoot-conversations', verifyJwt: true, expectedStatus: 200, payload: onDiagnostics((id) => ({ conversation_id: id })) },
  { name: 'admin-chatwoot-inboxes', verifyJwt: true, expectedStatus: 200, payload: () => ({}) },
  { name: 'admin-chatwoot-assign', verifyJwt: true, expectedStatus: 200, payload: onDiagnostics((id) => ({ conversation_id: id, assignee_id: null })) },
  { name: 'admin-chatwoot-send', verifyJwt: true, expectedStatus: 200, payload: onDiagnostics(() => ({ diagnostics: true, content: 'Admin edge check' })) },
  {
    name: 'admin-chatwoot-set-custom-attributes',
    verifyJwt: true,
    expectedStatus: 200,
    payload: onDiagnostics((id) => ({ conversation_id: id, attributes: { poradna_diagnostics: true } })),
  },
  { name: 'admin-chatwoot-toggle-status', verifyJwt: true, expectedStatus: 200, payload: onDiagnostics((id) => ({ conversation_id: id, status: 'open' })) },
];

/** The functions' documented "not set up" answers (supabase/functions/README.md): 503 with these. */
export const NOT_CONFIGURED_ERRORS = [
  'Chatwoot nie je nakonfigurovaný (chýba API URL, Account ID alebo CHATWOOT_API_TOKEN)',
  'Webhook secret is not configured',
] as const;

export function isNotConfigured(status: number | 'ERR', body: string): boolean {
  if (status !== 503) return false;
  try {
    const error = (JSON.parse(body) as { error?: unknown } | null)?.error;
    return (NOT_CONFIGURED_ERRORS as readonly unknown[]).includes(error);
  } catch {
    return false;
  }
}

export const BODY_LIMIT = 500;
export const ANON_KEY_SHOWN = 20;

export interface CheckResult {
  name: string;
  status: number | 'ERR' | '–';
  body: string;
  duration: number;
  success: boolean;
  /** The integration is not set up: neither passed nor failed (issue 21 admin item 11). */
  notConfigured: boolean;
  error: string | null;
}

/** The first 500 characters plus an ellipsis when longer. */
export function truncateBody(body: string, limit = BODY_LIMIT): string {
  return body.length > limit ? `${body.slice(0, limit)}…` : body;
}

export function truncateKey(key: string, shown = ANON_KEY_SHOWN): string {
  return key.length > shown ? `${key.slice(0, shown)}...` : key;
}

export function expectedMessage(status: number | string, expected = 200): string {
  return `Expected ${expected}, got ${status}`;
}

export function httpResult(def: CheckDefinition, status: number, body: string, duration: number): CheckResult {
  const success = status === def.expectedStatus;
  if (!success && isNotConfigured(status, body)) return { name: def.name, status, body, duration, success: false, notConfigured: true, error: null };
  return { name: def.name, status, body, duration, success, notConfigured: false, error: success ? null : expectedMessage(status, def.expectedStatus) };
}

export function networkResult(def: CheckDefinition, err: unknown, duration: number): CheckResult {
  const message = err instanceof Error && err.message ? err.message : 'Network/CORS error';
  return { name: def.name, status: 'ERR', body: '', duration, success: false, notConfigured: false, error: message };
}

/** A check that could not run for want of the diagnostics conversation. */
export function notRunResult(def: CheckDefinition, problem: { notConfigured: boolean; message: string }): CheckResult {
  return { name: def.name, status: '–', body: '', duration: 0, success: false, notConfigured: problem.notConfigured, error: problem.notConfigured ? null : problem.message };
}

export interface CheckSummary {
  total: number;
  passed: number;
  failed: number;
  notConfigured: number;
  averageMs: number;
}

export function summarize(results: readonly CheckResult[]): CheckSummary {
  const passed = results.filter((r) => r.success).length;
  const notConfigured = results.filter((r) => r.notConfigured).length;
  const averageMs = results.length === 0 ? 0 : Math.round(results.reduce((sum, r) => sum + r.duration, 0) / results.length);
  return { total: results.length, passed, failed: results.length - passed - notConfigured, notConfigured, averageMs };
}

/** Project reference: the first label of a hosted project's host (<ref>.supabase.co), else the host. */
export function projectRef(baseUrl: string): string {
  try {
    const host = new URL(baseUrl).hostname;
    return host.endsWith('.supabase.co') ? (host.split('.')[0] ?? host) : host;
  } catch {
    return baseUrl;
  }
}
