// admin-area.md section 4 in the database: specialists mode, assignment, plan change, the accounts
// view, the super-admin e-mails and user deletion. Each rule is an admin-only RPC; the table-call
// sequence the spec describes is checked too, since super admins may still use it.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  closeDb,
  createConversation,
  createPlan,
  createSpecialist,
  createUser,
  db,
  errorOf,
  ok,
  one,
  rest,
  rows,
  rpc,
  serverMessage,
  service,
  type TestUser,
} from './helpers.ts';

interface AccountState {
  id: string;
  plan: string;
  plan_id: string;
  specialists_mode: 'DEFAULT' | 'CUSTOM';
  active_specialist_ids: string[];
  assigned_specialist_ids: string[];
}

let admin: TestUser;
let member: TestUser;
let s1: string, s2: string, s3: string, s4: string;
let planP: { id: string; code: string };
let planQ: { id: string; code: string };

const sorted = (xs: string[]) => [...xs].sort();

async function state(accountId: string) {
  const a = await one<{ plan: string; plan_id: string; specialists_mode: string }>(
    'select plan, plan_id, specialists_mode from public.accounts where id = $1',
    [accountId],
  );
  const links = (await rows<{ specialist_id: string }>('select specialist_id from public.account_specialists where account_id = $1', [accountId])).map(
    (r) => r.specialist_id,
  );
  const active = ok<{ specialist_id: string }[]>(await rpc(admin.caller, 'get_active_specialists', { p_account_id: accountId })).map((r) => r.specialist_id);
  return { ...a, links: sorted(links), active: sorted(active) };
}

beforeAll(async () => {
  admin = await createUser('admin', { superAdmin: true });
  [s1, s2, s3, s4] = await Promise.all([0, 1, 2, 3].map(async () => (await createSpecialist({ isAi: true })).id)) as [string, string, string, string];
  planP = await createPlan([s1, s2]);
  planQ = await createPlan([s3, s4]);
});
beforeEach(async () => {
  member = await createUser('ruled');
  await db().query('update public.accounts set plan = $1 where id = $2', [planP.code, member.accountId]);
});
afterAll(closeDb);

describe('specialists mode', () => {
  it('DEFAULT -> CUSTOM changes only the mode; CUSTOM -> DEFAULT drops the explicit assignments', async () => {
    const toCustom = ok<AccountState>(await rpc(admin.caller, 'admin_set_specialists_mode', { p_account_id: member.accountId, p_mode: 'CUSTOM' }));
    expect(toCustom.specialists_mode).toBe('CUSTOM');
    expect(await state(member.accountId)).toMatchObject({ specialists_mode: 'CUSTOM', links: [], active: [] });

    ok(await rpc(admin.caller, 'admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: s3 }));
    expect(await state(member.accountId)).toMatchObject({ links: [s3], active: [s3] });

    ok(await rpc(admin.caller, 'admin_set_specialists_mode', { p_account_id: member.accountId, p_mode: 'DEFAULT' }));
    expect(await state(member.accountId)).toMatchObject({ specialists_mode: 'DEFAULT', links: [], active: sorted([s1, s2]) });
  });

  it('switching to the current mode changes nothing and records nothing', async () => {
    const audits = async () => (await rows(`select 1 from public.audit_log where account_id = $1 and action = 'admin.set_specialists_mode'`, [member.accountId])).length;
    ok(await rpc(admin.caller, 'admin_set_specialists_mode', { p_account_id: member.accountId, p_mode: 'DEFAULT' }));
    expect(await audits()).toBe(0);
    expect(await state(member.accountId)).toMatchObject({ specialists_mode: 'DEFAULT', links: [] });
  });

  it('an unknown mode is refused', async () => {
    const res = await rpc(admin.caller, 'admin_set_specialists_mode', { p_account_id: member.accountId, p_mode: 'SOMETIMES' });
    expect(errorOf(res).code).toBe('22023');
  });
});

describe('assigning and unassigning', () => {
  it('assign in DEFAULT: mode CUSTOM, the defaults copied, then the new one added', async () => {
    const res = ok<AccountState>(await rpc(admin.caller, 'admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: s4 }));
    expect(res.specialists_mode).toBe('CUSTOM');
    expect(sorted(res.active_specialist_ids)).toEqual(sorted([s1, s2, s4]));
    expect(await state(member.accountId)).toMatchObject({ specialists_mode: 'CUSTOM', links: sorted([s1, s2, s4]), active: sorted([s1, s2, s4]) });
  });

  it('assign in CUSTOM: only the link is added (twice is once)', async () => {
    await db().query(`update public.accounts set specialists_mode = 'CUSTOM' where id = $1`, [member.accountId]);
    ok(await rpc(admin.caller, 'admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: s3 }));
    ok(await rpc(admin.caller, 'admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: s3 }));
    expect(await state(member.accountId)).toMatchObject({ specialists_mode: 'CUSTOM', links: [s3], active: [s3] });
  });

  it('unassign a default-only specialist: mode CUSTOM and the other defaults stored explicitly', async () => {
    ok(await rpc(admin.caller, 'admin_unassign_specialist', { p_account_id: member.accountId, p_specialist_id: s1 }));
    expect(await state(member.accountId)).toMatchObject({ specialists_mode: 'CUSTOM', links: [s2], active: [s2] });
  });

  it('unassign otherwise: the explicit link is deleted', async () => {
    ok(await rpc(admin.caller, 'admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: s4 }));
    ok(await rpc(admin.caller, 'admin_unassign_specialist', { p_account_id: member.accountId, p_specialist_id: s4 }));
    expect(await state(member.accountId)).toMatchObject({ specialists_mode: 'CUSTOM', links: sorted([s1, s2]), active: sorted([s1, s2]) });
    // Unassigning something not active in DEFAULT mode changes nothing.
    const other = await createUser('untouched');
    await db().query('update public.accounts set plan = $1 where id = $2', [planP.code, other.accountId]);
    ok(await rpc(admin.caller, 'admin_unassign_specialist', { p_account_id: other.accountId, p_specialist_id: s4 }));
    expect(await state(other.accountId)).toMatchObject({ specialists_mode: 'DEFAULT', links: [], active: sorted([s1, s2]) });
  });

  it('a failing assignment leaves the account as it was', async () => {
    const res = await rpc(admin.caller, 'admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: randomUUID() });
    expect(errorOf(res).code).toBe('P0002');
    expect(await state(member.accountId)).toMatchObject({ specialists_mode: 'DEFAULT', links: [] });
  });

  it('concurrent admin changes never leave DEFAULT with explicit links', async () => {
    const calls = Array.from({ length: 24 }, (_, i) => {
      const sp = [s1, s2, s3, s4][i % 4]!;
      if (i % 3 === 0) return rpc(admin.caller, 'admin_set_specialists_mode', { p_account_id: member.accountId, p_mode: i % 2 ? 'DEFAULT' : 'CUSTOM' });
      if (i % 3 === 1) return rpc(admin.caller, 'admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: sp });
      return rpc(admin.caller, 'admin_unassign_specialist', { p_account_id: member.accountId, p_specialist_id: sp });
    });
    for (const r of await Promise.all(calls)) ok(r);
    const s = await state(member.accountId);
    if (s.specialists_mode === 'DEFAULT') expect(s.links).toEqual([]);
    else expect(s.active).toEqual(s.links);
  });
});

describe('plan change', () => {
  it('updates plan and plan_id and assigns the new plan specialists, in one call', async () => {
    ok(await rpc(admin.caller, 'admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: s4 }));
    const res = ok<AccountState>(await rpc(admin.caller, 'admin_change_plan', { p_account_id: member.accountId, p_plan_code: planQ.code }));
    expect(res).toMatchObject({ plan: planQ.code, plan_id: planQ.id, specialists_mode: 'DEFAULT' });
    expect(await state(member.accountId)).toEqual({ plan: planQ.code, plan_id: planQ.id, specialists_mode: 'DEFAULT', links: [], active: sorted([s3, s4]) });
    const audit = await one<{ details: { from: string; to: string } }>(
      `select details from public.audit_log where account_id = $1 and action = 'admin.change_plan'`,
      [member.accountId],
    );
    expect(audit.details).toEqual({ from: planP.code, to: planQ.code });
  });

  it('an unknown plan code raises invalid plan code and changes nothing', async () => {
    const res = await rpc(admin.caller, 'admin_change_plan', { p_account_id: member.accountId, p_plan_code: 'NO_SUCH_PLAN' });
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: '22023' });
    expect(errorOf(res).message).toMatch(/^invalid plan code/);
    expect(await state(member.accountId)).toMatchObject({ plan: planP.code, plan_id: planP.id });
  });

  it('choosing the current plan changes nothing', async () => {
    await db().query(`update public.accounts set specialists_mode = 'CUSTOM' where id = $1`, [member.accountId]);
    ok(await rpc(admin.caller, 'admin_change_plan', { p_account_id: member.accountId, p_plan_code: planP.code }));
    expect(await state(member.accountId)).toMatchObject({ plan: planP.code, specialists_mode: 'CUSTOM' });
  });

  it("the spec's table sequence stays consistent: plan code and plan_id agree, DEFAULT drops links", async () => {
    ok(await rest(admin.caller, 'PATCH', `accounts?id=eq.${member.accountId}`, { plan: planQ.code }));
    expect(await state(member.accountId)).toMatchObject({ plan: planQ.code, plan_id: planQ.id });
    ok(await rest(admin.caller, 'PATCH', `accounts?id=eq.${member.accountId}`, { plan_id: planP.id }));
    expect(await state(member.accountId)).toMatchObject({ plan: planP.code, plan_id: planP.id });
    const bad = await rest(admin.caller, 'PATCH', `accounts?id=eq.${member.accountId}`, { plan: 'NOPE' });
    expect(errorOf(bad).message).toMatch(/^invalid plan code/);
    const free = await one<{ id: string }>(`select id from public.plans where code = 'FREE'`);
    const clash = await rest(admin.caller, 'PATCH', `accounts?id=eq.${member.accountId}`, { plan: planQ.code, plan_id: free.id });
    expect(clash.status).toBe(400);

    ok(await rest(admin.caller, 'PATCH', `accounts?id=eq.${member.accountId}`, { specialists_mode: 'CUSTOM' }));
    ok(await rest(admin.caller, 'POST', 'account_specialists', { account_id: member.accountId, specialist_id: s3 }));
    ok(await rpc(admin.caller, 'assign_specialists_for_plan', { p_account_id: member.accountId }));
    expect(await state(member.accountId)).toMatchObject({ specialists_mode: 'DEFAULT', links: [], active: sorted([s1, s2]) });

    const forged = await rest(admin.caller, 'PATCH', `accounts?id=eq.${member.accountId}`, { change_seq: 999 });
    expect(forged.status).toBe(403);
  });
});

describe('admin-only', () => {
  it('members are refused by every admin RPC and nothing changes', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['admin_set_specialists_mode', { p_account_id: member.accountId, p_mode: 'CUSTOM' }],
      ['admin_assign_specialist', { p_account_id: member.accountId, p_specialist_id: s3 }],
      ['admin_unassign_specialist', { p_account_id: member.accountId, p_specialist_id: s1 }],
      ['admin_change_plan', { p_account_id: member.accountId, p_plan_code: planQ.code }],
      ['assign_specialists_for_plan', { p_account_id: member.accountId }],
      ['get_super_admin_emails', {}],
      ['admin_delete_user', { p_email: admin.email }],
      ['start_impersonation', { p_account_id: member.accountId }],
    ];
    for (const [fn, args] of calls) {
      const res = await rpc(member.caller, fn, args);
      expect(res.status, fn).toBe(403);
      expect(errorOf(res).code, fn).toBe('42501');
    }
    expect(await state(member.accountId)).toMatchObject({ plan: planP.code, specialists_mode: 'DEFAULT', links: [] });
    const anonCall = await rpc({ kind: 'anon' }, 'admin_change_plan', { p_account_id: member.accountId, p_plan_code: planQ.code });
    expect(anonCall.status).toBe(401);
  });

  it("get_active_specialists answers for one's own account and, for super admins, any account", async () => {
    const other = await createUser('nosy');
    const own = ok<{ specialist_id: string }[]>(await rpc(member.caller, 'get_active_specialists', { p_account_id: member.accountId }));
    expect(sorted(own.map((r) => r.specialist_id))).toEqual(sorted([s1, s2]));
    const res = await rpc(other.caller, 'get_active_specialists', { p_account_id: member.accountId });
    expect(res.status).toBe(403);
  });

  it('v_admin_accounts lists every account for super admins and nothing for members', async () => {
    const conv = await createConversation(member.accountId);
    const m = await serverMessage(conv, 'specialist', 'activity');
    const list = ok<{ id: string; name: string; owner_email: string; specialists_count: number; last_activity: string; owner_is_super_admin: boolean }[]>(
      // Filtered to the two accounts of interest: other test files create many accounts concurrently.
      await rest(admin.caller, 'GET', `v_admin_accounts?select=*&id=in.(${member.accountId},${admin.accountId})&order=name.asc`),
    );
    const row = list.find((r) => r.id === member.accountId);
    expect(row).toMatchObject({
      name: `${member.email.split('@')[0]!} Account`,
      owner_email: member.email,
      specialists_count: 2,
      owner_is_super_admin: false,
    });
    expect(new Date(row!.last_activity).toISOString()).toBe(m.created_at.toISOString());
    expect(list.find((r) => r.id === admin.accountId)?.owner_is_super_admin).toBe(true);
    expect(list).toHaveLength(2);
    expect(ok<unknown[]>(await rest(member.caller, 'GET', 'v_admin_accounts?select=*'))).toEqual([]);
  });

  it('get_super_admin_emails lists the super admins', async () => {
    const emails = ok<{ email: string }[]>(await rpc(admin.caller, 'get_super_admin_emails')).map((r) => r.email);
    expect(emails).toContain(admin.email);
    expect(emails).not.toContain(member.email);
  });
});

describe('deleting a user', () => {
  it('admin_delete_user (service role) removes the user and all of the account data', async () => {
    const conv = await createConversation(member.accountId);
    const m = await serverMessage(conv, 'specialist', 'to be deleted');
    await db().query('insert into public.read_cursors (user_id, conversation_id, last_read_message_id) values ($1, $2, $3)', [member.id, conv, m.id]);
    await db().query(`insert into auth.identities (provider_id, user_id, identity_data, provider) values ($1::text, $2::uuid, '{}', 'email')`, [member.id, member.id]);
    const res = ok<{ user_id: string; account_ids: string[] }>(await rpc(service, 'admin_delete_user', { p_email: member.email.toUpperCase() }));
    expect(res).toMatchObject({ user_id: member.id, account_ids: [member.accountId] });
    for (const [table, col, id] of [
      ['auth.users', 'id', member.id],
      ['auth.identities', 'user_id', member.id],
      ['public.accounts', 'id', member.accountId],
      ['public.account_users', 'user_id', member.id],
      ['public.conversations', 'account_id', member.accountId],
      ['public.messages', 'account_id', member.accountId],
      ['public.read_cursors', 'user_id', member.id],
      ['public.deleted_rows', 'account_id', member.accountId],
    ] as const) {
      expect(await rows(`select 1 from ${table} where ${col} = $1`, [id]), table).toHaveLength(0);
    }
  });

  it('refuses super admins and unknown e-mails; super admins may call it too', async () => {
    const res = await rpc(service, 'admin_delete_user', { p_email: admin.email });
    expect(res.status).toBe(403);
    expect(await rows('select 1 from auth.users where id = $1', [admin.id])).toHaveLength(1);
    expect(errorOf(await rpc(service, 'admin_delete_user', { p_email: 'nobody@db.test' })).code).toBe('P0002');
    ok(await rpc(admin.caller, 'admin_delete_user', { p_email: member.email }));
    expect(await rows('select 1 from public.accounts where id = $1', [member.accountId])).toHaveLength(0);
  });

  it('deleting the auth user directly (auth admin API) takes the owned account with it', async () => {
    const conv = await createConversation(member.accountId);
    await serverMessage(conv, 'user', 'bye');
    await db().query('delete from auth.users where id = $1', [member.id]);
    expect(await rows('select 1 from public.accounts where id = $1', [member.accountId])).toHaveLength(0);
    expect(await rows('select 1 from public.messages where account_id = $1', [member.accountId])).toHaveLength(0);
  });
});
