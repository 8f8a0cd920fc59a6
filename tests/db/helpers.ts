// Helpers for the database tests: a superuser pool for fixtures and assertions, user JWTs signed with
// the stack's secret (PostgREST only checks the signature), and raw PostgREST calls as each role.
// Every fixture is created fresh with random names, so test files never depend on one another.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import pg from 'pg';
import { inject } from 'vitest';
import type { ProvidedStack } from '../helpers/global-stack.ts';

export const stack: ProvidedStack = inject('stack');

/** The assistant specialist's fixed id (migration reference data). */
export const ASSISTANT_ID = '00000000-0000-4000-8000-000000000001';

let sharedPool: pg.Pool | undefined;
/** Superuser pool (bypasses RLS): fixtures and ground truth. */
export function db(): pg.Pool {
  sharedPool ??= new pg.Pool({ connectionString: stack.databaseUrl, max: 12 });
  return sharedPool;
}
export async function closeDb(): Promise<void> {
  await sharedPool?.end();
  sharedPool = undefined;
}

export async function one<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T> {
  const r = await db().query<T>(sql, params);
  const row = r.rows[0];
  if (!row) throw new Error(`no row: ${sql}`);
  return row;
}

export async function rows<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db().query<T>(sql, params)).rows;
}

export async function userJwt(user: { id: string; email: string }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role: 'authenticated', aud: 'authenticated', email: user.email, session_id: randomUUID() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt(now - 10)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(stack.jwtSecret));
}

/** Who calls: the anon key, the service-role key, or a user's JWT (with the anon key as apikey). */
export type Caller = { kind: 'anon' } | { kind: 'service' } | { kind: 'user'; token: string };

export const anon: Caller = { kind: 'anon' };
export const service: Caller = { kind: 'service' };

export interface RestResult {
  status: number;
  body: unknown;
}

export async function rest(
  caller: Caller,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RestResult> {
  const apikey = caller.kind === 'service' ? stack.serviceRoleKey : stack.anonKey;
  const bearer = caller.kind === 'user' ? caller.token : apikey;
  const res = await fetch(`${stack.url}/rest/v1/${path}`, {
    method,
    headers: {
      apikey,
      authorization: `Bearer ${bearer}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    // keep the text
  }
  return { status: res.status, body: parsed };
}

export async function rpc(caller: Caller, fn: string, args: Record<string, unknown> = {}): Promise<RestResult> {
  return rest(caller, 'POST', `rpc/${fn}`, args);
}

/** The body of a successful call, or a thrown error naming the status and PostgREST's message. */
export function ok<T>(r: RestResult): T {
  if (r.status >= 300) throw new Error(`HTTP ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body as T;
}

export function errorOf(r: RestResult): { code: string; message: string } {
  const b = r.body as { code?: unknown; message?: unknown } | null;
  return { code: typeof b?.code === 'string' ? b.code : '', message: typeof b?.message === 'string' ? b.message : '' };
}

export interface TestUser {
  id: string;
  email: string;
  accountId: string;
  token: string;
  caller: Caller;
}

/** A user inserted straight into auth.users; the signup trigger creates their account. */
export async function createUser(prefix = 'member', opts: { superAdmin?: boolean } = {}): Promise<TestUser> {
  const email = `${prefix}-${randomUUID().slice(0, 8)}@db.test`;
  const { id } = await one<{ id: string }>(
    `insert into auth.users (email, encrypted_password, email_confirmed_at) values ($1, 'x', now()) returning id`,
    [email],
  );
  if (opts.superAdmin) await db().query(`insert into public.app_users (user_id, role) values ($1, 'super_admin')`, [id]);
  const { account_id } = await one<{ account_id: string }>('select account_id from public.account_users where user_id = $1', [id]);
  const token = await userJwt({ id, email });
  return { id, email, accountId: account_id, token, caller: { kind: 'user', token } };
}

export interface TestSpecialist {
  id: string;
  name: string;
}

export async function createSpecialist(opts: { isAi: boolean; name?: string }): Promise<TestSpecialist> {
  const name = opts.name ?? `Test ${opts.isAi ? 'AI' : 'Human'} ${randomUUID().slice(0, 6)}`;
  const { id } = await one<{ id: string }>(
    `insert into public.specialists (name, role, seniority, is_ai) values ($1, 'Tester', 'Junior', $2) returning id`,
    [name, opts.isAi],
  );
  return { id, name };
}

/** A fresh plan (random code) including the given specialists. */
export async function createPlan(specialistIds: string[]): Promise<{ id: string; code: string }> {
  const code = `T_${randomUUID().slice(0, 8).toUpperCase()}`;
  const { id } = await one<{ id: string }>(`insert into public.plans (code, name) values ($1, $1) returning id`, [code]);
  for (const s of specialistIds) await db().query('insert into public.plan_specialists (plan_id, specialist_id) values ($1, $2)', [id, s]);
  return { id, code };
}

/** A conversation inserted as server code; without specialistId it gets a fresh specialist of its own. */
export async function createConversation(
  accountId: string,
  opts: { specialistId?: string; ai?: boolean; status?: 'active' | 'completed'; chatwootId?: number } = {},
): Promise<string> {
  const specialistId = opts.specialistId ?? (await createSpecialist({ isAi: opts.ai ?? false })).id;
  const { id } = await one<{ id: string }>(
    `insert into public.conversations (account_id, specialist_id, status, chatwoot_conversation_id) values ($1, $2, $3, $4) returning id`,
    [accountId, specialistId, opts.status ?? 'active', opts.chatwootId ?? null],
  );
  return id;
}

/** A message written as server code (superuser), e.g. a specialist reply. */
export async function serverMessage(
  conversationId: string,
  direction: 'user' | 'specialist' | 'system' | 'ai',
  text: string,
): Promise<{ id: string; created_at: Date; change_seq: string }> {
  return one(
    `insert into public.messages (conversation_id, direction, text) values ($1, $2, $3) returning id, created_at, change_seq`,
    [conversationId, direction, text],
  );
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function waitFor<T>(fn: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== null && v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
