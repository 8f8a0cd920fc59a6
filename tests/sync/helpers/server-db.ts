// Test-only server-side setup through the superuser connection (stack.databaseUrl): users, one shared
// account for several of them, specialists, conversations, and "server worker" writes. Plain SQL
// against the migrations' schema; nothing here is used by the product.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { SignJWT } from 'jose';

export interface TestUser {
  id: string;
  email: string;
  token: string;
  /** Set when the user was made with a password (sign-in through the real auth server). */
  password?: string;
}

export interface TestAccount {
  id: string;
  users: TestUser[];
  /** Human specialists (no AI replies) the account may use. */
  humans: string[];
  /** An AI specialist the account may use. */
  ai: string;
}

export function pool(databaseUrl: string): pg.Pool {
  return new pg.Pool({ connectionString: databaseUrl, max: 8 });
}

export async function signUserToken(jwtSecret: string, user: { id: string; email: string }, ttlSeconds = 3600): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: user.id, role: 'authenticated', aud: 'authenticated', email: user.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now - 30)
    .setExpirationTime(now + ttlSeconds)
    .sign(new TextEncoder().encode(jwtSecret));
}

/** Specialists made for tests, shared by every account created here. */
export async function testSpecialists(db: pg.Pool): Promise<{ humans: string[]; ai: string }> {
  const humans = ['00000000-0000-4000-8000-0000000005a1', '00000000-0000-4000-8000-0000000005a2', '00000000-0000-4000-8000-0000000005a3'];
  const ai = '00000000-0000-4000-8000-0000000005b1';
  await db.query(
    `insert into public.specialists (id, name, role, seniority, bio, skills, is_ai)
     select id, name, 'Testovací špecialista', 'Senior', 'Na testy.', array['testy'], is_ai
       from (values ($1::uuid, 'Človek Prvý', false), ($2::uuid, 'Človek Druhý', false), ($3::uuid, 'Človek Tretí', false), ($4::uuid, 'Umelá Inteligencia', true)) v(id, name, is_ai)
     on conflict (id) do nothing`,
    [...humans, ai],
  );
  return { humans, ai };
}

/**
 * An account with `members` users (the first is the owner). Users are inserted into auth.users (the
 * signup trigger gives each an account); the others are then moved into the first one's account.
 */
export async function createAccount(db: pg.Pool, jwtSecret: string, members: number, tag = 'sync', password?: string): Promise<TestAccount> {
  const { humans, ai } = await testSpecialists(db);
  const users: TestUser[] = [];
  for (let i = 0; i < members; i++) {
    const id = randomUUID();
    const email = `${tag}-${id.slice(0, 8)}@example.test`;
    // A password is stored as GoTrue does (bcrypt), so the user can sign in through the auth server.
    await db.query(
      `insert into auth.users (id, email, email_confirmed_at, encrypted_password)
       values ($1, $2, now(), case when $3::text is null then null else extensions.crypt($3, extensions.gen_salt('bf', 4)) end)`,
      [id, email, password ?? null],
    );
    users.push({ id, email, token: await signUserToken(jwtSecret, { id, email }), ...(password ? { password } : {}) });
  }
  const owner = await db.query<{ account_id: string }>('select account_id from public.account_users where user_id = $1', [users[0]!.id]);
  const accountId = owner.rows[0]!.account_id;
  const others = users.slice(1).map((u) => u.id);
  if (others.length) {
    const old = await db.query<{ account_id: string }>('select account_id from public.account_users where user_id = any($1)', [others]);
    await db.query(`update public.account_users set account_id = $1, role = 'member' where user_id = any($2)`, [accountId, others]);
    await db.query('delete from public.accounts where id = any($1)', [old.rows.map((r) => r.account_id)]);
  }
  await db.query(`update public.accounts set specialists_mode = 'CUSTOM' where id = $1`, [accountId]);
  await db.query(
    `insert into public.account_specialists (account_id, specialist_id) select $1, unnest($2::uuid[]) on conflict do nothing`,
    [accountId, [...humans, ai]],
  );
  return { id: accountId, users, humans, ai };
}

export async function createConversation(db: pg.Pool, accountId: string, specialistId: string): Promise<string> {
  const r = await db.query<{ id: string }>('insert into public.conversations (account_id, specialist_id) values ($1, $2) returning id', [accountId, specialistId]);
  return r.rows[0]!.id;
}

/** What a server worker does: a specialist's message in the conversation. */
export async function specialistSays(db: pg.Pool | pg.PoolClient, conversationId: string, text: string): Promise<string> {
  const r = await db.query<{ id: string }>(
    `insert into public.messages (conversation_id, text, type, direction, source) values ($1, $2, 'text', 'specialist', 'test') returning id`,
    [conversationId, text],
  );
  return r.rows[0]!.id;
}
