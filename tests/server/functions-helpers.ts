// Helpers for the function tests (tests/server/functions-*.test.ts): seeded logins, fresh users,
// one call shape for supabase.functions.invoke (status + JSON body, success or not), raw HTTP for
// what supabase-js cannot send (no JWT at all, broken JSON), superuser SQL, polling, and a small
// pausable proxy that stands between the stack's AI worker and the stack.
import { randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FunctionsHttpError } from '@supabase/supabase-js';
import pg from 'pg';
import { startChatwootDouble, type ChatwootDouble } from '../doubles/chatwoot/server.ts';
import type { Db } from '../../supabase/functions/_shared/clients.ts';
import { anonClient, serviceClient, uniqueEmail } from '../helpers/clients.ts';
import type { ProvidedStack } from '../helpers/global-stack.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { pollFor } from '../helpers/wait.ts';

/** supabase-js without generated types, as the functions use it (RPC arguments stay untyped). */
export type Client = Db;
export const anonDb = (stack: Pick<StackRef, 'url' | 'anonKey'>): Client => anonClient(stack);
export const serviceDb = (stack: Pick<StackRef, 'url' | 'serviceRoleKey'>): Client => serviceClient(stack);

export type StackRef = Pick<ProvidedStack, 'url' | 'anonKey' | 'serviceRoleKey' | 'databaseUrl'>;
export type Json = Record<string, unknown>;

export const PASSWORD = 'poradna123';
export const SEEDED = {
  demo: 'demo@poradna.test',
  admin: 'admin@poradna.test',
  druhy: 'druhy@poradna.test',
} as const;

/** Seeded specialists (supabase/seed.sql): plans FREE ⊂ PRO ⊂ ENTERPRISE. */
export const SPECIALIST = {
  assistant: '00000000-0000-4000-8000-000000000001', // always allowed, AI
  lucia: '00000000-0000-4000-8000-000000000010', // FREE, AI
  peter: '00000000-0000-4000-8000-000000000013', // PRO, AI
  zuzana: '00000000-0000-4000-8000-000000000015', // PRO, human
  jana: '00000000-0000-4000-8000-000000000016', // PRO, human
  katarina: '00000000-0000-4000-8000-000000000017', // ENTERPRISE, human
} as const;

export async function signIn(stack: StackRef, email: string, password = PASSWORD): Promise<Client> {
  const client = anonDb(stack);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session)
    throw new Error(`sign-in of ${email} failed: ${error?.message ?? 'no session'}`);
  return client;
}

export async function accessToken(client: Client): Promise<string> {
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return data.session.access_token;
}

export interface FreshUser {
  email: string;
  userId: string;
  client: Client;
}

/** A new confirmed user (the signup trigger gives them an account on plan FREE), signed in. */
export async function freshUser(stack: StackRef, prefix = 'fn'): Promise<FreshUser> {
  const email = uniqueEmail(prefix);
  const created = await serviceDb(stack).auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
  });
  if (created.error) throw new Error(`createUser: ${created.error.message}`);
  return { email, userId: created.data.user.id, client: await signIn(stack, email) };
}

export interface Reply {
  status: number;
  body: Json;
}

/** supabase.functions.invoke with the status and JSON body of any reply, 2xx or not. */
export async function call(client: Client, name: string, body?: unknown): Promise<Reply> {
  const { data, error, response } = await client.functions.invoke(
    name,
    body === undefined ? {} : { body: body as Json },
  );
  if (error) {
    if (!(error instanceof FunctionsHttpError)) throw error;
    const res = error.context as Response;
    return { status: res.status, body: (await res.json()) as Json };
  }
  return { status: response?.status ?? 200, body: data as Json };
}

/** A POST without supabase-js: no Authorization header unless a token is given; body sent as is. */
export async function rawPost(
  stack: Pick<StackRef, 'url' | 'anonKey'>,
  name: string,
  body: string,
  opts: { token?: string; query?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const res = await fetch(`${stack.url}/functions/v1/${name}${opts.query ?? ''}`, {
    method: 'POST',
    headers: {
      apikey: stack.anonKey,
      'content-type': 'application/json',
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...opts.headers,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Json };
}

/** Runs fn with a superuser connection to the stack's database. */
export async function withDb<T>(
  stack: Pick<StackRef, 'databaseUrl'>,
  fn: (db: pg.Client) => Promise<T>,
): Promise<T> {
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    return await fn(db);
  } finally {
    await db.end();
  }
}

export async function sql<R extends pg.QueryResultRow = Json>(
  stack: Pick<StackRef, 'databaseUrl'>,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  return withDb(stack, async (db) => (await db.query<R>(text, params)).rows);
}

/** Polls `fn` (every 50 ms, 15 s at most) until it returns a value (not undefined/null/false). */
export function waitFor<T>(
  fn: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  return pollFor(fn, what, timeoutMs, 50);
}

export interface MessageRow {
  id: string;
  text: string | null;
  direction: string;
  type: string;
  source: string | null;
  client_correlation_id: string | null;
  chatwoot_message_id: string | null;
  payload: Json | null;
  created_at: Date;
}

export function messagesOf(
  stack: Pick<StackRef, 'databaseUrl'>,
  conversationId: string,
): Promise<MessageRow[]> {
  return sql<MessageRow>(
    stack,
    `select id, text, direction, type, source, client_correlation_id, chatwoot_message_id::text, payload, created_at
       from public.messages where conversation_id = $1 order by created_at, id`,
    [conversationId],
  );
}

/** Sends a user message through the send_message RPC as the member would. */
export async function sendMessage(
  client: Client,
  conversationId: string,
  text: string,
): Promise<{ id: string }> {
  const r = await client.rpc('send_message', {
    p_conversation_id: conversationId,
    p_text: text,
    p_client_correlation_id: randomUUID(),
  });
  if (r.error) throw new Error(`send_message: ${r.error.message}`);
  return r.data as { id: string };
}

/** Waits for the specialist (or system) messages created after a user message. */
export function repliesAfter(
  stack: Pick<StackRef, 'databaseUrl'>,
  conversationId: string,
  userMessageId: string,
) {
  return sql<MessageRow>(
    stack,
    `select m.id, m.text, m.direction, m.type, m.source, m.client_correlation_id, m.chatwoot_message_id::text, m.payload, m.created_at
       from public.messages m, public.messages u
      where u.id = $2 and m.conversation_id = $1 and m.direction in ('specialist', 'system')
        and (m.created_at, m.id) > (u.created_at, u.id)
      order by m.created_at, m.id`,
    [conversationId, userMessageId],
  );
}

/**
 * A reverse proxy with an off switch. The local stack's AI worker reaches the stack through
 * SUPABASE_INTERNAL_URL (supabase/local/workers.ts), which tests can point here through
 * startTestStack's functionEnv; while paused every request gets 503, so the worker claims nothing
 * (a worker that is "down"), and resume() brings it back. Functions use SUPABASE_URL and are not
 * affected.
 */
export interface WorkerGate {
  url: string;
  target: string | undefined;
  pause(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startWorkerGate(): Promise<WorkerGate> {
  let paused = false;
  const gate: WorkerGate = {
    url: '',
    target: undefined,
    pause: () => void (paused = true),
    resume: () => void (paused = false),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (paused || !gate.target) {
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"worker gate closed"}');
      return;
    }
    const target = new URL(req.url ?? '/', gate.target);
    const upstream = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return gate;
}

/** A fresh random secret of n URL-safe characters. */
export function randomSecret(n = 40): string {
  let s = '';
  while (s.length < n) s += randomUUID().replace(/-/g, '');
  return s.slice(0, n);
}

/** The stack's connection facts in the shape the helpers take. */
export function refOf(stack: TestStack): StackRef {
  return {
    url: stack.url,
    anonKey: stack.keys.anonKey,
    serviceRoleKey: stack.keys.serviceRoleKey,
    databaseUrl: stack.databaseUrl,
  };
}

export interface ChatwootWorld {
  double: ChatwootDouble;
  stack: TestStack;
  ref: StackRef;
  /** CHATWOOT_WEBHOOK_SECRET of the stack (also the double's webhook signing secret). */
  secret: string;
  /** Specialist id -> the double's inbox id (Zuzana, Jana, Katarína: the seeded human specialists). */
  inboxOf: Record<string, number>;
  stop(): Promise<void>;
}

/**
 * A dedicated stack wired to a fresh Chatwoot double: CHATWOOT_API_TOKEN and CHATWOOT_WEBHOOK_SECRET
 * in the functions' env, the chatwoot_config row saved by the super admin (as /admin/chatwoot does),
 * the human specialists mapped onto the double's API inboxes, and the double's account webhook
 * pointing at chatwoot-webhook with the secret in its URL (deliveries signed with the same secret).
 */
export async function startChatwootWorld(): Promise<ChatwootWorld> {
  const double = await startChatwootDouble();
  const secret = randomSecret(40);
  const stack = await startTestStack(
    {},
    // The double listens on loopback: the explicit opt-in for a Chatwoot on a private network.
    { functionEnv: { CHATWOOT_WEBHOOK_SECRET: secret, CHATWOOT_API_TOKEN: double.apiToken, CHATWOOT_ALLOW_PRIVATE_URLS: '1' } },
  );
  const ref = refOf(stack);
  const admin = await signIn(ref, SEEDED.admin);
  const cfg = await admin
    .from('chatwoot_config')
    .insert({ api_base_url: double.url, account_id: double.accountId });
  if (cfg.error) throw new Error(`chatwoot_config: ${cfg.error.message}`);
  const inboxOf: Record<string, number> = {};
  const humans = [SPECIALIST.zuzana, SPECIALIST.jana, SPECIALIST.katarina];
  for (const [i, id] of humans.entries()) {
    const inbox = double.inboxes[i]!.id;
    inboxOf[id] = inbox;
    await sql(ref, 'update specialists set chatwoot_inbox_id = $2 where id = $1', [id, inbox]);
  }
  double.addWebhook(
    `${stack.url}/functions/v1/chatwoot-webhook?secret=${secret}`,
    ['message_created', 'message_updated', 'conversation_status_changed', 'conversation_updated'],
    secret,
  );
  return {
    double,
    stack,
    ref,
    secret,
    inboxOf,
    stop: async () => {
      await double.stop();
      await stack.destroy();
    },
  };
}
