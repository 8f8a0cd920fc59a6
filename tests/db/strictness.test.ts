// The local database is as strict as a hosted Supabase project today, and the app still works on it.
// The normal stack is the strict one: no default privileges for the API roles (what the dashboard
// runs on new projects: supabase/cli apps/cli-go/internal/db/start/start.go), migrations applied by
// a non-superuser owner (as `supabase db push` runs them as the demoted `postgres`), extensions in
// `extensions`, role timeouts. Then every Data API call the app makes (found by scanning src/, sync/
// and supabase/functions/ for `.from('…')` / `.rpc('…')`) is made as the role that makes it, and must
// not be refused for lack of a grant; anon gets nothing; realtime's own privilege check passes.
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RealtimePostgresChangesPayload } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../supabase/local/migrate.ts';
import { anonClient, type Client } from '../helpers/clients.ts';
import {
  anon,
  closeDb,
  createUser,
  errorOf,
  one,
  rest,
  rows,
  rpc,
  service,
  stack,
  type Caller,
  type RestResult,
  type TestUser,
} from './helpers.ts';

const API_ROLES = ['anon', 'authenticated', 'service_role'];

/** Refused for lack of a privilege (or, for anon, any refusal). */
function denied(r: RestResult): boolean {
  const e = errorOf(r);
  return r.status === 401 || r.status === 403 || e.code === '42501' || /permission denied/i.test(e.message);
}

function describeResult(r: RestResult): string {
  return `${r.status} ${JSON.stringify(r.body).slice(0, 200)}`;
}

let member: TestUser;
let admin: TestUser;
let conversationId: string;
let specialistId: string;
const clients: Client[] = [];

beforeAll(async () => {
  member = await createUser('strict-member');
  admin = await createUser('strict-admin', { superAdmin: true });
  specialistId = (await one<{ id: string }>(`select id from public.specialists where is_assistant`)).id;
  const started = await rpc(member.caller, 'start_conversation', { p_specialist_id: specialistId });
  expect(started.status, describeResult(started)).toBe(200);
  conversationId = (started.body as { conversation_id: string }).conversation_id;
});

afterAll(async () => {
  for (const c of clients) await c.removeAllChannels();
  await closeDb();
});

/** Every `.from('x')` and `.rpc('x')` name in the app's code (src, sync, functions). */
async function callSites(): Promise<{ tables: Set<string>; rpcs: Set<string> }> {
  const tables = new Set<string>();
  const rpcs = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== 'node_modules') await walk(p);
      } else if (/\.(ts|tsx)$/.test(e.name)) {
        const text = await readFile(p, 'utf8');
        // `storage.from('bucket')` names a storage bucket, not a table (storage-attacks.test.ts covers those).
        for (const m of text.matchAll(/(?<!storage)\.from\(\s*['"]([a-z_]+)['"]/g)) tables.add(m[1]!);
        // `.rpc('x')` and local wrappers named rpc (`rpc('admin_change_plan', …)`).
        for (const m of text.matchAll(/\brpc\(\s*['"]([a-z_]+)['"]/g)) rpcs.add(m[1]!);
        // Tables read in a loop (admin diagnostics' SCHEMA_TABLES).
        for (const m of text.matchAll(/\bSCHEMA_TABLES\s*=\s*\[([^\]]*)\]/g)) for (const t of m[1]!.matchAll(/['"]([a-z_]+)['"]/g)) tables.add(t[1]!);
      }
    }
  };
  for (const d of ['src', 'sync', 'sw', join('supabase', 'functions')]) await walk(join(repoRoot, d));
  return { tables, rpcs };
}

// Each app call as the role that makes it. `who` lists the callers; the request must not be refused
// for lack of a privilege. Arguments are valid, so most calls succeed outright.
type Call = { name: string; who: Caller[]; run: (c: Caller) => Promise<RestResult> };
const m = () => member.caller;
const a = () => admin.caller;
const select = (table: string, query = 'select=*&limit=5') => (c: Caller) => rest(c, 'GET', `${table}?${query}`);

const TABLE_CALLS: (() => Call)[] = [
  () => ({ name: 'plans', who: [m(), a(), service], run: select('plans') }),
  () => ({ name: 'specialists', who: [m(), a(), service], run: select('specialists') }),
  () => ({ name: 'accounts', who: [m(), a(), service], run: select('accounts') }),
  () => ({ name: 'account_users', who: [m(), a(), service], run: select('account_users') }),
  () => ({ name: 'app_users', who: [m(), a(), service], run: select('app_users') }),
  () => ({ name: 'account_specialists', who: [a(), service], run: select('account_specialists') }),
  // The AI worker reads the plan's specialists to suggest them (issue 39, job-context.ts).
  () => ({ name: 'plan_specialists', who: [service], run: select('plan_specialists') }),
  () => ({ name: 'conversations', who: [m(), a(), service], run: select('conversations') }),
  () => ({ name: 'messages', who: [m(), a(), service], run: select('messages') }),
  () => ({ name: 'chatwoot_config', who: [a(), service], run: select('chatwoot_config') }),
  () => ({ name: 'chatwoot_contacts', who: [m(), service], run: select('chatwoot_contacts') }),
  () => ({ name: 'chatwoot_diagnostics', who: [service], run: select('chatwoot_diagnostics') }),
  () => ({ name: 'integration_events', who: [a(), service], run: select('integration_events') }),
  () => ({ name: 'v_admin_accounts', who: [a(), service], run: select('v_admin_accounts') }),
  // Web Push (issue 20): a member lists and deletes their own devices; the worker uses the service role.
  () => ({ name: 'push_subscriptions', who: [m(), a(), service], run: select('push_subscriptions') }),
  () => ({ name: 'push_viewing', who: [m(), service], run: select('push_viewing') }),
  () => ({ name: 'push_notifications', who: [service], run: select('push_notifications') }),
  () => ({ name: 'push_deliveries', who: [service], run: select('push_deliveries') }),
];

const RPC_CALLS: (() => Call)[] = [
  () => ({ name: 'sync_pull', who: [m()], run: (c) => rpc(c, 'sync_pull', { p_since: 0, p_limit: 50 }) }),
  () => ({ name: 'send_message', who: [m()], run: (c) => rpc(c, 'send_message', { p_conversation_id: conversationId, p_text: 'ahoj', p_client_correlation_id: randomUUID() }) }),
  () => ({ name: 'get_unread_counts', who: [m()], run: (c) => rpc(c, 'get_unread_counts') }),
  () => ({ name: 'get_active_specialists', who: [m(), a(), service], run: (c) => rpc(c, 'get_active_specialists', { p_account_id: member.accountId }) }),
  () => ({ name: 'start_conversation', who: [m()], run: (c) => rpc(c, 'start_conversation', { p_specialist_id: specialistId }) }),
  () => ({ name: 'ensure_first_conversation', who: [m()], run: (c) => rpc(c, 'ensure_first_conversation') }),
  () => ({ name: 'ensure_account', who: [m(), a()], run: (c) => rpc(c, 'ensure_account') }),
  () => ({ name: 'current_account_id', who: [m(), a()], run: (c) => rpc(c, 'current_account_id') }),
  () => ({ name: 'get_super_admin_emails', who: [a(), service], run: (c) => rpc(c, 'get_super_admin_emails') }),
  () => ({ name: 'admin_schema_report', who: [a(), service], run: (c) => rpc(c, 'admin_schema_report') }),
  () => ({ name: 'admin_rich_messages', who: [a(), service], run: (c) => rpc(c, 'admin_rich_messages', { p_limit: 5 }) }),
  () => ({ name: 'admin_open_conversation', who: [a(), service], run: (c) => rpc(c, 'admin_open_conversation', { p_account_id: member.accountId, p_specialist_id: specialistId }) }),
  () => ({ name: 'admin_set_specialists_mode', who: [a()], run: (c) => rpc(c, 'admin_set_specialists_mode', { p_account_id: member.accountId, p_mode: 'CUSTOM' }) }),
  () => ({ name: 'admin_assign_specialist', who: [a()], run: (c) => rpc(c, 'admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: specialistId }) }),
  () => ({ name: 'admin_unassign_specialist', who: [a()], run: (c) => rpc(c, 'admin_unassign_specialist', { p_account_id: member.accountId, p_specialist_id: specialistId }) }),
  () => ({ name: 'admin_change_plan', who: [a()], run: (c) => rpc(c, 'admin_change_plan', { p_account_id: member.accountId, p_plan_code: 'PRO' }) }),
  () => ({ name: 'start_impersonation', who: [a()], run: (c) => rpc(c, 'start_impersonation', { p_account_id: member.accountId }) }),
  () => ({ name: 'stop_impersonation', who: [a()], run: (c) => rpc(c, 'stop_impersonation') }),
  () => ({ name: 'mark_read', who: [m()], run: async (c) => {
    const msg = await one<{ id: string }>(`select id from public.messages where conversation_id = $1 order by created_at desc limit 1`, [conversationId]);
    return rpc(c, 'mark_read', { p_conversation_id: conversationId, p_message_id: msg.id });
  } }),
  // The delete-user function (service key) and a super admin: a throwaway user each time.
  () => ({ name: 'admin_delete_user', who: [a(), service], run: async (c) => rpc(c, 'admin_delete_user', { p_email: (await createUser('strict-doomed')).email }) }),
  // The auth-link function's rate limit (service key only): a fresh client and address each time.
  () => ({ name: 'auth_link_take', who: [service], run: (c) => rpc(c, 'auth_link_take', { p_client: `strict-${randomUUID()}`, p_email: `${randomUUID()}@example.com`, p_client_limit: 10, p_email_limit: 3, p_window_seconds: 60 }) }),
  () => ({ name: 'claim_ai_reply_job', who: [service], run: (c) => rpc(c, 'claim_ai_reply_job', { p_worker: 'strictness' }) }),
  // A job id that does not exist: the function runs (and answers its own error), it is not refused.
  () => ({ name: 'complete_ai_reply_job', who: [service], run: (c) => rpc(c, 'complete_ai_reply_job', { p_job_id: randomUUID(), p_text: 'x' }) }),
  () => ({ name: 'fail_ai_reply_job', who: [service], run: (c) => rpc(c, 'fail_ai_reply_job', { p_job_id: randomUUID(), p_error: 'x', p_retry_in_ms: 0 }) }),
  // Streamed AI replies (issue 39): the worker's writes (a job id that does not exist answers its own
  // error), and a member's Stop / retry of a reply (an id they cannot see answers 404, not a refusal).
  () => ({ name: 'ai_reply_progress', who: [service], run: (c) => rpc(c, 'ai_reply_progress', { p_job_id: randomUUID(), p_worker: 'strictness', p_text: null }) }),
  () => ({ name: 'finish_ai_reply_job', who: [service], run: (c) => rpc(c, 'finish_ai_reply_job', { p_job_id: randomUUID(), p_worker: 'strictness', p_text: 'x', p_outcome: 'done' }) }),
  () => ({ name: 'stop_ai_reply', who: [m(), a()], run: (c) => rpc(c, 'stop_ai_reply', { p_message_id: randomUUID() }) }),
  () => ({ name: 'retry_ai_reply', who: [m(), a()], run: (c) => rpc(c, 'retry_ai_reply', { p_message_id: randomUUID() }) }),
  // Conversation owner (issue 39 handoff): a member asks for a human (an id they cannot see is a
  // 404), the Chatwoot webhook sets the owner as the service role.
  () => ({ name: 'request_human', who: [m(), a()], run: (c) => rpc(c, 'request_human', { p_conversation_id: randomUUID() }) }),
  () => ({ name: 'set_conversation_owner', who: [service], run: (c) => rpc(c, 'set_conversation_owner', { p_conversation_id: randomUUID(), p_state: 'human', p_agent_name: 'Strict' }) }),
  // Chatwoot's events by their own time (issue 39, R14.9): the webhook's (an id that does not exist
  // answers its own 404 or 'missing').
  () => ({ name: 'chatwoot_apply_state', who: [service], run: (c) => rpc(c, 'chatwoot_apply_state', { p_conversation_id: randomUUID(), p_at: null, p_status: null, p_owner_state: null }) }),
  () => ({ name: 'chatwoot_update_message', who: [service], run: (c) => rpc(c, 'chatwoot_update_message', { p_conversation_id: randomUUID(), p_chatwoot_message_id: 1, p_at: null, p_text: 'x', p_type: 'text', p_payload: null }) }),
  // Web Push (issue 20).
  () => ({ name: 'push_subscribe', who: [m(), a()], run: (c) => rpc(c, 'push_subscribe', { p_endpoint: `https://fcm.googleapis.com/fcm/send/${randomUUID()}`, p_p256dh: 'B'.repeat(87), p_auth: 'A'.repeat(22), p_user_agent: 'strict' }) }),
  () => ({ name: 'push_unsubscribe', who: [m(), a()], run: (c) => rpc(c, 'push_unsubscribe', { p_endpoint: 'https://fcm.googleapis.com/fcm/send/none' }) }),
  () => ({ name: 'push_viewing', who: [m()], run: (c) => rpc(c, 'push_viewing', { p_conversation_id: conversationId }) }),
  () => ({ name: 'claim_push_notifications', who: [service], run: (c) => rpc(c, 'claim_push_notifications', { p_worker: 'strictness', p_limit: 1 }) }),
  () => ({ name: 'finish_push_notification', who: [service], run: (c) => rpc(c, 'finish_push_notification', { p_id: randomUUID(), p_results: [] }) }),
  () => ({ name: 'defer_push_notifications', who: [service], run: (c) => rpc(c, 'defer_push_notifications', { p_ids: [randomUUID()], p_seconds: 1 }) }),
  () => ({ name: 'mark_read_by_agent', who: [service], run: (c) => rpc(c, 'mark_read_by_agent', { p_conversation_id: conversationId, p_seen_at: new Date().toISOString() }) }),
];

describe('the database is as strict as hosted Supabase', () => {
  it('grants nothing to the API roles by default (pg_default_acl), in any schema, for any owner', async () => {
    const leaks = await rows<{ owner: string; schema: string | null; objtype: string; acl: string }>(
      `select d.defaclrole::regrole::text as owner, d.defaclnamespace::regnamespace::text as schema,
              d.defaclobjtype::text as objtype, a.grantee::regrole::text || ':' || a.privilege_type as acl
         from pg_default_acl d, aclexplode(d.defaclacl) a
        where a.grantee in (select oid from pg_roles where rolname = any($1))`,
      [API_ROLES],
    );
    expect(leaks).toEqual([]);
  });

  it('migrations ran as a non-superuser owner: it owns every object in public and private', async () => {
    const owner = await one<{ rolsuper: boolean; rolbypassrls: boolean }>(`select rolsuper, rolbypassrls from pg_roles where rolname = 'migration_owner'`);
    expect(owner).toEqual({ rolsuper: false, rolbypassrls: true });
    const foreign = await rows(
      `select c.relname as name from pg_class c where c.relnamespace in ('public'::regnamespace, 'private'::regnamespace)
          and c.relkind in ('r', 'v', 'm', 'p') and c.relowner <> 'migration_owner'::regrole
        union all
       select p.proname from pg_proc p where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
          and p.proowner <> 'migration_owner'::regrole`,
    );
    expect(foreign).toEqual([]);
    const applied = await one<{ n: string }>(`select count(*) as n from local_stack.schema_migrations`);
    expect(Number(applied.n)).toBeGreaterThan(10);
  });

  it('pgcrypto lives in `extensions`, so none of its functions is an RPC', async () => {
    expect(await one(`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pgcrypto'`)).toEqual({ schema: 'extensions' });
    const r = await rpc(anon, 'crypt', { '': 'x' });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(await rows(`select 1 from pg_proc where pronamespace = 'public'::regnamespace and proname in ('crypt', 'gen_salt', 'digest')`)).toEqual([]);
  });

  it('the API roles have hosted Supabase statement timeouts (anon 3s, authenticated 8s)', async () => {
    const settings = await rows<{ role: string; setting: string }>(
      `select r.rolname as role, s as setting from pg_db_role_setting d join pg_roles r on r.oid = d.setrole, unnest(d.setconfig) s
        where d.setdatabase = 0 and s like 'statement_timeout=%' order by 1`,
    );
    expect(settings).toEqual([
      { role: 'anon', setting: 'statement_timeout=3s' },
      { role: 'authenticated', setting: 'statement_timeout=8s' },
      { role: 'authenticator', setting: 'statement_timeout=8s' },
    ]);
  });

  it('every table and RPC the app names is covered below (a new call site must be added here)', async () => {
    const { tables, rpcs } = await callSites();
    const coveredTables = new Set(TABLE_CALLS.map((c) => c().name));
    const coveredRpcs = new Set(RPC_CALLS.map((c) => c().name));
    // Calls only the app's own tests make (functions/_shared/testing) are covered by their names too.
    expect([...tables].filter((t) => !coveredTables.has(t)).sort()).toEqual([]);
    expect([...rpcs].filter((f) => !coveredRpcs.has(f)).sort()).toEqual([]);
    expect(tables.size).toBeGreaterThan(8);
    expect(rpcs.size).toBeGreaterThan(10);
  });

  it('every app read and RPC works as member, super admin and service role', async () => {
    const refused: string[] = [];
    for (const make of [...TABLE_CALLS, ...RPC_CALLS]) {
      const call = make();
      for (const who of call.who) {
        const r = await call.run(who);
        const label = who.kind === 'user' ? (who.token === admin.token ? 'admin' : 'member') : who.kind;
        if (denied(r)) refused.push(`${call.name} as ${label}: ${describeResult(r)}`);
      }
    }
    expect(refused).toEqual([]);
  });

  it('the app writes work: member inserts a message (upsert), archives, marks read; admin edits; service writes', async () => {
    const corr = randomUUID();
    const ins = await rest(
      member.caller,
      'POST',
      'messages?on_conflict=conversation_id,client_correlation_id',
      { conversation_id: conversationId, text: 'priamo', type: 'text', direction: 'user', client_correlation_id: corr },
      { prefer: 'resolution=merge-duplicates,return=representation' },
    );
    expect(ins.status, describeResult(ins)).toBe(201);
    const msgId = (ins.body as { id: string }[])[0]!.id;
    const read = await rpc(member.caller, 'mark_read', { p_conversation_id: conversationId, p_message_id: msgId });
    expect(read.status, describeResult(read)).toBe(200);
    const arch = await rest(member.caller, 'PATCH', `conversations?id=eq.${conversationId}`, { archived_at: new Date().toISOString() });
    expect(arch.status, describeResult(arch)).toBe(200);

    const acc = await rest(admin.caller, 'PATCH', `accounts?id=eq.${member.accountId}`, { name: 'Prísny účet' });
    expect(acc.status, describeResult(acc)).toBe(200);
    const plan = await rpc(admin.caller, 'admin_change_plan', { p_account_id: member.accountId, p_plan_code: 'PRO' });
    expect(plan.status, describeResult(plan)).toBe(200);
    const assign = await rpc(admin.caller, 'admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: specialistId });
    expect(assign.status, describeResult(assign)).toBe(200);

    const contact = await rest(service, 'POST', 'chatwoot_contacts', { account_id: member.accountId, inbox_id: 4242, source_id: 's', pubsub_token: 't' });
    expect(contact.status, describeResult(contact)).toBe(201);
    const ev = await rest(service, 'POST', 'integration_events', { kind: 'strictness', level: 'info', data: {} });
    expect(ev.status, describeResult(ev)).toBe(201);
    const reply = await rest(service, 'POST', 'messages', { conversation_id: conversationId, text: 'odpoveď', type: 'text', direction: 'specialist', source: 'chatwoot' });
    expect(reply.status, describeResult(reply)).toBe(201);
  });

  it('anon reads no table and calls no RPC', async () => {
    const open: string[] = [];
    for (const make of TABLE_CALLS) {
      const call = make();
      const r = await call.run(anon);
      if (!denied(r)) open.push(`${call.name}: ${describeResult(r)}`);
    }
    for (const make of RPC_CALLS) {
      const call = make();
      const r = await call.run(anon);
      if (!denied(r)) open.push(`rpc ${call.name}: ${describeResult(r)}`);
    }
    expect(open).toEqual([]);
  });

  it("realtime's privilege check passes and a member's subscription receives their account's message", async () => {
    // Supabase Realtime refuses a postgres_changes subscription unless the subscriber's role may
    // select the table's columns (the issue quotes has_column_privilege(... 'id', 'SELECT')).
    for (const [table, column] of [['messages', 'id'], ['conversations', 'id'], ['read_cursors', 'conversation_id'], ['messages', 'account_id']] as const) {
      const r = await one<{ ok: boolean }>(`select has_column_privilege('authenticated', $1::regclass, $2, 'SELECT') as ok`, [`public.${table}`, column]);
      expect(r.ok, table).toBe(true);
    }
    const client = anonClient(stack);
    clients.push(client);
    await client.realtime.setAuth(member.token);
    const got: RealtimePostgresChangesPayload<Record<string, unknown>>[] = [];
    let status = '';
    client
      .channel(`strict:${member.accountId}`)
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'messages', filter: `account_id=eq.${member.accountId}` }, (p) => got.push(p))
      .subscribe((s) => (status = s));
    const until = async (cond: () => boolean) => {
      const end = Date.now() + 8000;
      while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
    };
    await until(() => status === 'SUBSCRIBED');
    expect(status).toBe('SUBSCRIBED');
    const sent = await rpc(member.caller, 'send_message', { p_conversation_id: conversationId, p_text: 'naživo', p_client_correlation_id: randomUUID() });
    expect(sent.status, describeResult(sent)).toBe(200);
    await until(() => got.some((p) => (p.new as { text?: string }).text === 'naživo'));
    expect(got.map((p) => (p.new as { text?: string }).text)).toContain('naživo');
  });
});
