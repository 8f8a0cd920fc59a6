// The signed-in area's account read (src/data/remote-account.ts readAccountForUser): one request, the
// account embedded in the user's account_users row through its foreign key, through unmodified
// supabase-js and the stack's real PostgREST. RLS decides what the embed shows, as it did for the two
// requests it replaced: a member sees their own account, never another user's; anon is refused.
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { readAccountForUser } from '../../src/data/remote-account.ts';
import { anonClient, uniqueEmail, type Client } from '../helpers/clients.ts';
import { signUpConfirmed } from '../helpers/signup.ts';

const stack = inject('stack');
const pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
afterAll(() => pool.end());

async function member(prefix: string): Promise<{ client: Client; userId: string; requests: string[] }> {
  const requests: string[] = [];
  const counting: typeof fetch = (input, init) => {
    requests.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return fetch(input, init);
  };
  const client = createClient(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    global: { fetch: counting },
  });
  const { data, error } = await signUpConfirmed(stack, client, { email: uniqueEmail(prefix), password: 'heslo-123456' });
  expect(error).toBeNull();
  return { client, userId: data.user!.id, requests };
}

describe('R19.14 the account of the signed-in user', () => {
  it('comes in one request with every field the app reads, and is the account the user belongs to', async () => {
    const alice = await member('ucet-alica');
    const [link] = (await pool.query<{ account_id: string }>('select account_id from public.account_users where user_id = $1', [alice.userId])).rows;
    const [row] = (await pool.query('select id, name, plan, specialists_mode from public.accounts where id = $1', [link!.account_id])).rows;
    const before = alice.requests.length;
    const account = await readAccountForUser(alice.client, alice.userId);
    expect(account).toEqual(row);
    expect(alice.requests.slice(before)).toEqual(['/rest/v1/account_users']);
  });

  it("another user's id answers null, not their account (RLS on account_users); anon is refused", async () => {
    const alice = await member('ucet-alica2');
    const bob = await member('ucet-bob');
    expect(await readAccountForUser(bob.client, alice.userId)).toBeNull();
    // anon has no grant on account_users (the two requests it replaced were refused the same way).
    await expect(readAccountForUser(anonClient(stack), alice.userId)).rejects.toThrow('permission denied for table account_users');
    expect(await readAccountForUser(alice.client, alice.userId)).not.toBeNull();
  });

  it('a user without an account answers null', async () => {
    const carol = await member('ucet-carol');
    await pool.query('delete from public.account_users where user_id = $1', [carol.userId]);
    expect(await readAccountForUser(carol.client, carol.userId)).toBeNull();
  });
});
