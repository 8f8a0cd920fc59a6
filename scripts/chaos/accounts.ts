// The chaos run's people: `accounts` accounts, each with an owner and a member (two users of one
// account see each other's messages), on plan ENTERPRISE with two conversations with human
// specialists (no AI replies: the run counts only what people type). Created with SQL as the
// database owner, the way supabase/seed.sql makes its demo users (the signup trigger makes accounts).
import pg from 'pg';

export const CHAOS_PASSWORD = 'poradna123';
/** Human specialists (is_ai = false) from supabase/seed.sql. */
const HUMAN_SPECIALISTS = ['00000000-0000-4000-8000-000000000015', '00000000-0000-4000-8000-000000000016'];

export interface ChaosUser {
  id: string;
  email: string;
  accountId: string;
}

export interface ChaosAccount {
  id: string;
  label: string;
  conversations: string[];
}

export interface ChaosPeople {
  accounts: ChaosAccount[];
  /** Interleaved: owner of account 0, owner of 1, …, member of 0, member of 1, … */
  users: ChaosUser[];
}

export async function createPeople(databaseUrl: string, accounts: number, runTag: string): Promise<ChaosPeople> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('begin');
    const people: ChaosPeople = { accounts: [], users: [] };
    const members: ChaosUser[] = [];
    for (let a = 0; a < accounts; a++) {
      const label = String.fromCharCode(65 + a);
      const mk = async (role: string) => {
        const email = `chaos-${runTag}-${label.toLowerCase()}-${role}@poradna.test`;
        const r = await client.query<{ id: string }>(
          `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                                   raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
           values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1,
                   extensions.crypt($2, extensions.gen_salt('bf', 4)), now(), '{"provider":"email","providers":["email"]}', '{}', now(), now())
           returning id`,
          [email, CHAOS_PASSWORD],
        );
        const id = r.rows[0]!.id;
        await client.query(
          `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
           values ($1::text, $1::uuid, jsonb_build_object('sub', $1::text, 'email', $2::text, 'email_verified', true), 'email', now(), now())`,
          [id, email],
        );
        return { id, email };
      };
      const owner = await mk('owner');
      const acc = await client.query<{ account_id: string }>('select account_id from public.account_users where user_id = $1', [owner.id]);
      const accountId = acc.rows[0]!.account_id;
      await client.query(`update public.accounts set plan = 'ENTERPRISE' where id = $1`, [accountId]);
      const member = await mk('member');
      // The member's own auto-created account goes; the member joins the owner's account.
      await client.query(
        `delete from public.accounts where id = (select account_id from public.account_users where user_id = $1)`,
        [member.id],
      );
      await client.query(`insert into public.account_users (account_id, user_id, role) values ($1, $2, 'member')`, [accountId, member.id]);
      const conversations: string[] = [];
      for (const specialist of HUMAN_SPECIALISTS) {
        const c = await client.query<{ id: string }>(
          `insert into public.conversations (account_id, specialist_id) values ($1, $2) returning id`,
          [accountId, specialist],
        );
        conversations.push(c.rows[0]!.id);
      }
      people.accounts.push({ id: accountId, label, conversations });
      people.users.push({ ...owner, accountId });
      members.push({ ...member, accountId });
    }
    people.users.push(...members);
    await client.query('commit');
    return people;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

export interface ServerState {
  messages: { id: string; conversationId: string; accountId: string; text: string | null }[];
  conversations: Map<string, string[]>;
}

export async function readServerState(databaseUrl: string, accountIds: string[]): Promise<ServerState> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const msgs = await client.query<{ id: string; conversation_id: string; account_id: string; text: string | null }>(
      // Chaos texts anywhere else would be a row in the wrong account.
      `select id, conversation_id, account_id, text from public.messages where account_id = any($1::uuid[]) or text like 'chaos %'`,
      [accountIds],
    );
    const convs = await client.query<{ id: string; account_id: string }>(
      'select id, account_id from public.conversations where account_id = any($1::uuid[])',
      [accountIds],
    );
    const conversations = new Map<string, string[]>(accountIds.map((a) => [a, []]));
    for (const c of convs.rows) conversations.get(c.account_id)!.push(c.id);
    return {
      messages: msgs.rows.map((m) => ({ id: m.id, conversationId: m.conversation_id, accountId: m.account_id, text: m.text })),
      conversations,
    };
  } finally {
    await client.end();
  }
}
