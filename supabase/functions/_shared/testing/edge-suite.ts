// test-runner "edge": the nine function checks of admin-area.md section 7, made from the server with
// the caller's token. Each must answer 200. Conversation-specific Chatwoot checks use a linked
// conversation when one exists.
import type { Caller } from '../caller.ts';
import type { Db } from '../clients.ts';
import type { FunctionEnv } from '../types.ts';
import { assert, runChecks, type Check, type SuiteResult } from './suite.ts';

interface EdgeCheck {
  name: string;
  verifyJwt: boolean;
  payload: () => Record<string, unknown>;
}

export async function edgeSuite(caller: Caller, env: FunctionEnv, service: Db): Promise<SuiteResult> {
  const linked = await service
    .from('conversations')
    .select('id, chatwoot_conversation_id, account_id, specialist:specialists(chatwoot_inbox_id)')
    .not('chatwoot_conversation_id', 'is', null)
    .limit(1)
    .maybeSingle<{ chatwoot_conversation_id: number; specialist: { chatwoot_inbox_id: number | null } | null }>();
  const inbox = await service.from('specialists').select('chatwoot_inbox_id').not('chatwoot_inbox_id', 'is', null).limit(1).maybeSingle<{ chatwoot_inbox_id: number }>();
  const account = await caller.db.rpc('current_account_id');
  const cwId = linked.data?.chatwoot_conversation_id ?? 0;
  const probeEmail = `edge-check-${crypto.randomUUID().slice(0, 8)}@example.test`;
  const checks: EdgeCheck[] = [
    { name: 'test-function', verifyJwt: false, payload: () => ({ message: 'test-runner' }) },
    { name: 'auth-link', verifyJwt: false, payload: () => ({ email: probeEmail }) },
    { name: 'chatwoot-webhook', verifyJwt: false, payload: () => ({ webhook_test: true }) },
    { name: 'admin-chatwoot-conversations', verifyJwt: true, payload: () => (cwId ? { conversation_id: cwId } : {}) },
    { name: 'admin-chatwoot-inboxes', verifyJwt: true, payload: () => ({}) },
    { name: 'admin-chatwoot-assign', verifyJwt: true, payload: () => ({ conversation_id: cwId, assignee_id: null }) },
    {
      name: 'admin-chatwoot-send',
      verifyJwt: true,
      payload: () => ({ account_id: account.data as string, inbox_id: inbox.data?.chatwoot_inbox_id ?? 0, content: 'Test z test-runnera' }),
    },
    { name: 'admin-chatwoot-set-custom-attributes', verifyJwt: true, payload: () => ({ conversation_id: cwId, attributes: { poradna_check: 'ok' } }) },
    { name: 'admin-chatwoot-toggle-status', verifyJwt: true, payload: () => ({ conversation_id: cwId, status: 'open' }) },
  ];
  const asCheck = (c: EdgeCheck): Check => ({
    name: `${c.name} (${c.verifyJwt ? 'JWT Required' : 'Public'})`,
    run: async () => {
      const res = await fetch(`${env.SUPABASE_URL}/functions/v1/${c.name}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(c.verifyJwt ? { Authorization: `Bearer ${caller.token}` } : { Authorization: `Bearer ${env.SUPABASE_ANON_KEY}` }),
        },
        body: JSON.stringify(c.payload()),
      });
      const text = await res.text();
      assert(res.status === 200, `Expected 200, got ${res.status}: ${text.slice(0, 200)}`);
      return `200, ${text.length} B`;
    },
  });
  try {
    return await runChecks('Edge: funkcie', checks.map(asCheck));
  } finally {
    await service.rpc('admin_delete_user', { p_email: probeEmail });
  }
}
