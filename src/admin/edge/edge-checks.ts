// The nine POST checks of /admin/edge-functions (admin-area.md sections 6, 7, 9) and the pure rules
// of their results: success only on the expected status, bodies cut to 500 characters, the summary.

export interface CheckContext {
  email: string;
  accountId: string | null;
  conversationId: number | null;
  inboxId: number | null;
}

export interface CheckDefinition {
  name: string;
  verifyJwt: boolean;
  expectedStatus: number;
  payload: (ctx: CheckContext) => Record<string, unknown>;
}

export const CHECKS: readonly CheckDefinition[] = [
  { name: 'test-function', verifyJwt: false, expectedStatus: 200, payload: () => ({ message: 'Admin edge check' }) },
  { name: 'auth-link', verifyJwt: false, expectedStatus: 200, payload: (c) => ({ email: c.email }) },
  { name: 'chatwoot-webhook', verifyJwt: false, expectedStatus: 200, payload: () => ({ webhook_test: true }) },
  { name: 'admin-chatwoot-conversations', verifyJwt: true, expectedStatus: 200, payload: (c) => ({ conversation_id: c.conversationId }) },
  { name: 'admin-chatwoot-inboxes', verifyJwt: true, expectedStatus: 200, payload: () => ({}) },
  { name: 'admin-chatwoot-assign', verifyJwt: true, expectedStatus: 200, payload: (c) => ({ conversation_id: c.conversationId, assignee_id: null }) },
  {
    name: 'admin-chatwoot-send',
    verifyJwt: true,
    expectedStatus: 200,
    payload: (c) => ({ account_id: c.accountId, inbox_id: c.inboxId, content: 'Admin edge check' }),
  },
  {
    name: 'admin-chatwoot-set-custom-attributes',
    verifyJwt: true,
    expectedStatus: 200,
    payload: (c) => ({ conversation_id: c.conversationId, attributes: { admin_check: 'ok' } }),
  },
  { name: 'admin-chatwoot-toggle-status', verifyJwt: true, expectedStatus: 200, payload: (c) => ({ conversation_id: c.conversationId, status: 'open' }) },
];

export const BODY_LIMIT = 500;
export const ANON_KEY_SHOWN = 20;

export interface CheckResult {
  name: string;
  status: number | 'ERR';
  body: string;
  duration: number;
  success: boolean;
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
  return { name: def.name, status, body, duration, success, error: success ? null : expectedMessage(status, def.expectedStatus) };
}

export function networkResult(def: CheckDefinition, err: unknown, duration: number): CheckResult {
  const message = err instanceof Error && err.message ? err.message : 'Network/CORS error';
  return { name: def.name, status: 'ERR', body: '', duration, success: false, error: message };
}

export interface CheckSummary {
  total: number;
  passed: number;
  failed: number;
  averageMs: number;
}

export function summarize(results: readonly CheckResult[]): CheckSummary {
  const passed = results.filter((r) => r.success).length;
  const averageMs = results.length === 0 ? 0 : Math.round(results.reduce((sum, r) => sum + r.duration, 0) / results.length);
  return { total: results.length, passed, failed: results.length - passed, averageMs };
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
