import { describe, expect, it } from 'vitest';
import {
  BODY_LIMIT,
  CHECKS,
  httpResult,
  isNotConfigured,
  networkResult,
  notRunResult,
  projectRef,
  summarize,
  truncateBody,
  truncateKey,
  type CheckResult,
} from '../../../src/admin/edge/edge-checks.ts';

describe('edge-function checks', () => {
  it('lists the nine functions in order: 3 public, 6 protected, all expecting 200 but auth-link (400, mails nobody)', () => {
    expect(CHECKS.map((c) => c.name)).toEqual([
      'test-function',
      'auth-link',
      'chatwoot-webhook',
      'admin-chatwoot-conversations',
      'admin-chatwoot-inboxes',
      'admin-chatwoot-assign',
      'admin-chatwoot-send',
      'admin-chatwoot-set-custom-attributes',
      'admin-chatwoot-toggle-status',
    ]);
    expect(CHECKS.filter((c) => !c.verifyJwt).map((c) => c.name)).toEqual(['test-function', 'auth-link', 'chatwoot-webhook']);
    expect(CHECKS.filter((c) => c.expectedStatus !== 200).map((c) => [c.name, c.expectedStatus])).toEqual([['auth-link', 400]]);
  });

  it('builds payloads that touch only the diagnostics conversation and mail nobody (issue 21 admin 3)', () => {
    const ctx = { diagnosticsConversationId: 7, diagnosticsProblem: null };
    const payload = (name: string) => CHECKS.find((c) => c.name === name)?.payload(ctx);
    expect(payload('auth-link')).toEqual({});
    expect(payload('chatwoot-webhook')).toEqual({ webhook_test: true });
    expect(payload('admin-chatwoot-inboxes')).toEqual({});
    expect(payload('admin-chatwoot-conversations')).toEqual({ conversation_id: 7 });
    expect(payload('admin-chatwoot-assign')).toEqual({ conversation_id: 7, assignee_id: null });
    expect(payload('admin-chatwoot-send')).toEqual({ diagnostics: true, content: 'Admin edge check' });
    expect(payload('admin-chatwoot-set-custom-attributes')).toEqual({ conversation_id: 7, attributes: { poradna_diagnostics: true } });
    expect(payload('admin-chatwoot-toggle-status')).toEqual({ conversation_id: 7, status: 'open' });
    // Without the diagnostics conversation, no Chatwoot conversation check runs at all.
    const none = { diagnosticsConversationId: null, diagnosticsProblem: { notConfigured: true, message: 'x' } };
    const unrun = CHECKS.filter((c) => c.payload(none) === null).map((c) => c.name);
    expect(unrun).toEqual(['admin-chatwoot-conversations', 'admin-chatwoot-assign', 'admin-chatwoot-send', 'admin-chatwoot-set-custom-attributes', 'admin-chatwoot-toggle-status']);
  });

  it('a documented not-configured 503 is its own outcome, not a failure (issue 21 admin 11)', () => {
    const def = CHECKS.find((c) => c.name === 'admin-chatwoot-inboxes')!;
    const nc = '{"success":false,"error":"Chatwoot nie je nakonfigurovaný (chýba API URL, Account ID alebo CHATWOOT_API_TOKEN)"}';
    expect(isNotConfigured(503, nc)).toBe(true);
    expect(isNotConfigured(503, '{"error":"Webhook secret is not configured"}')).toBe(true);
    expect(isNotConfigured(503, '{"error":"Webhook secret is too short: x"}')).toBe(false);
    expect(isNotConfigured(502, nc)).toBe(false);
    expect(httpResult(def, 503, nc, 4)).toMatchObject({ success: false, notConfigured: true, error: null });
    expect(notRunResult(def, { notConfigured: true, message: 'x' })).toMatchObject({ notConfigured: true, error: null });
    expect(notRunResult(def, { notConfigured: false, message: 'boom' })).toMatchObject({ notConfigured: false, success: false, error: 'boom' });
    const r = (success: boolean, notConfigured: boolean): CheckResult => ({ name: 'x', status: 200, body: '', duration: 0, success, notConfigured, error: null });
    expect(summarize([r(true, false), r(false, true), r(false, true), r(false, false)])).toMatchObject({ total: 4, passed: 1, failed: 1, notConfigured: 2 });
  });

  it('truncates bodies to 500 characters plus an ellipsis', () => {
    expect(BODY_LIMIT).toBe(500);
    expect(truncateBody('x'.repeat(500))).toBe('x'.repeat(500));
    expect(truncateBody('x'.repeat(501))).toBe(`${'x'.repeat(500)}…`);
    expect(truncateBody('')).toBe('');
  });

  it('shows 20 characters of the anon key', () => {
    expect(truncateKey('abcdefghijklmnopqrstuvwxyz')).toBe('abcdefghijklmnopqrst...');
    expect(truncateKey('short')).toBe('short');
  });

  it('succeeds only on the expected status; otherwise Expected 200, got {status}', () => {
    const def = CHECKS[0]!;
    expect(httpResult(def, 200, '{}', 12)).toEqual({ name: 'test-function', status: 200, body: '{}', duration: 12, success: true, notConfigured: false, error: null });
    expect(httpResult(def, 401, 'no', 5)).toMatchObject({ success: false, error: 'Expected 200, got 401' });
  });

  it('network failures give ERR with the message, or Network/CORS error', () => {
    const def = CHECKS[1]!;
    expect(networkResult(def, new TypeError('Failed to fetch'), 3)).toMatchObject({ status: 'ERR', success: false, error: 'Failed to fetch' });
    expect(networkResult(def, null, 3)).toMatchObject({ status: 'ERR', error: 'Network/CORS error' });
  });

  it('summarises total, passed, failed and the average duration', () => {
    const r = (success: boolean, duration: number): CheckResult => ({ name: 'x', status: 200, body: '', duration, success, notConfigured: false, error: null });
    expect(summarize([r(true, 10), r(false, 21), r(true, 30)])).toEqual({ total: 3, passed: 2, failed: 1, notConfigured: 0, averageMs: 20 });
    expect(summarize([])).toEqual({ total: 0, passed: 0, failed: 0, notConfigured: 0, averageMs: 0 });
  });

  it('derives the project reference from the base URL', () => {
    expect(projectRef('https://abcd1234.supabase.co')).toBe('abcd1234');
    expect(projectRef('http://127.0.0.1:54321')).toBe('127.0.0.1');
  });
});
