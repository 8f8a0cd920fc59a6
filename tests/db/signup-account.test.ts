// The auto-created account (admin-area.md section 4): a new auth.users row, however it is made, gets
// an account named after the e-mail's local part + " Account", plan FREE, mode DEFAULT, and the
// owner link.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { anonClient } from '../helpers/clients.ts';
import { closeDb, db, ok, one, rows, rpc, stack, userJwt } from './helpers.ts';

interface AccountRow {
  id: string;
  name: string;
  owner_email: string | null;
  plan: string;
  plan_id: string;
  specialists_mode: string;
}

async function accountOf(userId: string): Promise<AccountRow & { role: string }> {
  return one(
    `select a.id, a.name, a.owner_email, a.plan, a.plan_id, a.specialists_mode, au.role
       from public.account_users au join public.accounts a on a.id = au.account_id where au.user_id = $1`,
    [userId],
  );
}

afterAll(closeDb);

describe('auto-created account', () => {
  it('an auth.users insert creates the account, plan FREE, with the owner link', async () => {
    const local = `Jana.Novakova+${randomUUID().slice(0, 6)}`;
    const email = `${local}@Firma.sk`;
    const { id } = await one<{ id: string }>(`insert into auth.users (email) values ($1) returning id`, [email]);
    const free = await one<{ id: string }>(`select id from public.plans where code = 'FREE'`);
    expect(await accountOf(id)).toMatchObject({
      name: `${local} Account`,
      owner_email: email.toLowerCase(),
      plan: 'FREE',
      plan_id: free.id,
      specialists_mode: 'DEFAULT',
      role: 'owner',
    });
    expect(await rows('select 1 from public.account_users where user_id = $1', [id])).toHaveLength(1);
  });

  it('a sign-up through the auth service does the same, and the user can read the account', async () => {
    const email = `signup-${randomUUID().slice(0, 8)}@db.test`;
    const res = await anonClient(stack).auth.signUp({ email, password: 'heslo123A' });
    expect(res.error).toBeNull();
    const user = await one<{ id: string }>('select id from auth.users where email = $1', [email]);
    const account = await accountOf(user.id);
    expect(account).toMatchObject({ name: `${email.split('@')[0]!} Account`, plan: 'FREE' });

    const token = await userJwt({ id: user.id, email });
    const seen = await fetch(`${stack.url}/rest/v1/accounts?select=id,name,plan,specialists_mode`, {
      headers: { apikey: stack.anonKey, authorization: `Bearer ${token}` },
    });
    expect((await seen.json()) as unknown).toEqual([{ id: account.id, name: account.name, plan: 'FREE', specialists_mode: 'DEFAULT' }]);
  });

  it('a user without an e-mail still gets an account; ensure_account recreates a missing one', async () => {
    const { id } = await one<{ id: string }>(`insert into auth.users (phone) values ('+421900000000') returning id`);
    expect((await accountOf(id)).name).toBe('New Account');

    const email = `lost-${randomUUID().slice(0, 8)}@db.test`;
    const lost = await one<{ id: string }>(`insert into auth.users (email) values ($1) returning id`, [email]);
    const old = await accountOf(lost.id);
    await db().query('delete from public.accounts where id = $1', [old.id]);
    const caller = { kind: 'user' as const, token: await userJwt({ id: lost.id, email }) };
    const recreated = ok<string>(await rpc(caller, 'ensure_account'));
    expect(recreated).not.toBe(old.id);
    expect(await accountOf(lost.id)).toMatchObject({ id: recreated, plan: 'FREE', role: 'owner' });
    expect(ok<string>(await rpc(caller, 'ensure_account'))).toBe(recreated);
  });
});
