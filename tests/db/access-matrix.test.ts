// The access matrix (access-matrix.ts) exercised through PostgREST with real JWTs: for every table
// and view, every caller and every operation, a fresh world of fixtures is built, the call is made,
// and the database (read as superuser) decides what happened.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MATRIX, OPS, ROLES, type Cell, type Op, type Role } from './access-matrix.ts';
import { anon, closeDb, createConversation, createSpecialist, createUser, db, one, rest, rows, service, serverMessage, type Caller, type TestUser } from './helpers.ts';

interface World {
  a: TestUser;
  b: TestUser;
  admin: TestUser;
  specialist: string;
  spare: string; // a specialist in no plan and no assignment
  convA: string;
  convB: string;
  msgA: string;
  msgA2: string;
  msgB: string;
}

interface RowRef {
  /** PostgREST filter selecting exactly this row. */
  filter: string;
  /** SQL (superuser) predicate for this row, on the table named in `table`. */
  where: string;
}

interface TableSpec {
  /** Where the rows live (a view's rows are checked in its base table). */
  table: string;
  rows(w: World): Promise<{ A: RowRef; B?: RowRef }>;
  /** A new row to insert as `role`, and how to find it afterwards. */
  insert(w: World, role: Role): Promise<{ body: Record<string, unknown>; where: string }>;
  /** A change to row A, and a predicate (on the table, alone) true once it was applied. */
  update(w: World, ref: RowRef): Promise<{ patch: Record<string, unknown>; applied: string }>;
}

const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
const ref = (cols: Record<string, string>): RowRef => ({
  filter: Object.entries(cols).map(([k, v]) => `${k}=eq.${encodeURIComponent(v)}`).join('&'),
  where: Object.entries(cols).map(([k, v]) => `${k} = ${lit(v)}`).join(' and '),
});
/** Row r with a further condition. */
const onRow = (r: RowRef, condition: string) => `${r.where} and ${condition}`;
const tag = () => randomUUID().slice(0, 8);
const PAST = '2001-01-01T00:00:00+00:00';

async function world(): Promise<World> {
  const [a, b, admin] = await Promise.all([createUser('mx-a'), createUser('mx-b'), createUser('mx-admin', { superAdmin: true })]);
  const specialist = (await createSpecialist({ isAi: false })).id;
  const spare = (await createSpecialist({ isAi: false })).id;
  const convA = await createConversation(a.accountId, { specialistId: specialist });
  const convB = await createConversation(b.accountId, { specialistId: specialist });
  const msgA = (await serverMessage(convA, 'specialist', 'A1')).id;
  const msgA2 = (await serverMessage(convA, 'specialist', 'A2')).id;
  const msgB = (await serverMessage(convB, 'specialist', 'B1')).id;
  return { a, b, admin, specialist, spare, convA, convB, msgA, msgA2, msgB };
}

function callerOf(w: World, role: Role): Caller {
  switch (role) {
    case 'anon':
      return anon;
    case 'service':
      return service;
    case 'memberA':
      return w.a.caller;
    case 'memberB':
      return w.b.caller;
    case 'admin':
      return w.admin.caller;
  }
}

/** The user a caller writes "their own" rows as (anon and service write memberA's). */
function selfOf(w: World, role: Role): TestUser {
  return role === 'memberB' ? w.b : role === 'admin' ? w.admin : w.a;
}

async function newPlan(): Promise<string> {
  const code = `MX_${tag().toUpperCase()}`;
  await db().query('insert into public.plans (code, name) values ($1, $1)', [code]);
  return code;
}
async function planId(code: string): Promise<string> {
  return (await one<{ id: string }>('select id from public.plans where code = $1', [code])).id;
}
/** A user without an account (so a link may be inserted for them). */
async function linklessUser(): Promise<string> {
  const u = await createUser('mx-free');
  await db().query('delete from public.accounts where id = $1', [u.accountId]);
  return u.id;
}
async function job(w: World, accountId: string, messageId: string, conversationId: string): Promise<string> {
  // run_after in the future: the stack's AI worker must leave fixture jobs alone.
  return (
    await one<{ id: string }>(
      `insert into public.ai_reply_jobs (message_id, conversation_id, account_id, specialist_id, run_after)
       values ($1, $2, $3, $4, now() + interval '1 day') returning id`,
      [messageId, conversationId, accountId, w.specialist],
    )
  ).id;
}

const P256DH = 'B'.repeat(87);
const AUTH = 'A'.repeat(22);
async function pushSub(userId: string): Promise<string> {
  return (
    await one<{ id: string }>(
      `insert into public.push_subscriptions (user_id, endpoint, p256dh, auth) values ($1, $2, $3, $4) returning id`,
      [userId, `https://fcm.googleapis.com/fcm/send/${randomUUID()}`, P256DH, AUTH],
    )
  ).id;
}
/** A queued notification, due far in the future so the stack's push worker leaves it alone. */
async function pushNote(userId: string, messageId: string, conversationId: string): Promise<string> {
  return (
    await one<{ id: string }>(
      `insert into public.push_notifications (message_id, user_id, conversation_id, due_at) values ($1, $2, $3, '2999-01-01') returning id`,
      [messageId, userId, conversationId],
    )
  ).id;
}

const SPECS: Record<string, TableSpec> = {
  plans: {
    table: 'public.plans',
    rows: async () => ({ A: ref({ code: await newPlan() }), B: ref({ code: await newPlan() }) }),
    insert: async () => {
      const code = `MX_${tag().toUpperCase()}`;
      return { body: { code, name: code }, where: `code = ${lit(code)}` };
    },
    update: async (_w, r) => ({ patch: { name: 'patched' }, applied: onRow(r, `name = 'patched'`) }),
  },
  plan_specialists: {
    table: 'public.plan_specialists',
    rows: async (w) => {
      const [pa, pb] = [await planId(await newPlan()), await planId(await newPlan())];
      await db().query('insert into public.plan_specialists (plan_id, specialist_id) values ($1, $3), ($2, $3)', [pa, pb, w.specialist]);
      return { A: ref({ plan_id: pa, specialist_id: w.specialist }), B: ref({ plan_id: pb, specialist_id: w.specialist }) };
    },
    insert: async (w) => {
      const p = await planId(await newPlan());
      return { body: { plan_id: p, specialist_id: w.spare }, where: `plan_id = ${lit(p)}` };
    },
    // No column outside the key: the update moves the row to another specialist.
    update: async (w, r) => ({ patch: { specialist_id: w.spare }, applied: `${r.where.split(' and ')[0]!} and specialist_id = ${lit(w.spare)}` }),
  },
  specialists: {
    table: 'public.specialists',
    rows: async (w) => ({ A: ref({ id: w.specialist }), B: ref({ id: w.spare }) }),
    insert: async () => {
      const id = randomUUID();
      return { body: { id, name: 'Nový špecialista' }, where: `id = ${lit(id)}` };
    },
    update: async (_w, r) => ({ patch: { name: 'patched' }, applied: onRow(r, `name = 'patched'`) }),
  },
  accounts: {
    table: 'public.accounts',
    rows: async (w) => ({ A: ref({ id: w.a.accountId }), B: ref({ id: w.b.accountId }) }),
    insert: async () => {
      const id = randomUUID();
      return { body: { id, name: 'Nový účet', plan: 'FREE' }, where: `id = ${lit(id)}` };
    },
    update: async (_w, r) => ({ patch: { name: 'patched' }, applied: onRow(r, `name = 'patched'`) }),
  },
  account_users: {
    table: 'public.account_users',
    rows: async (w) => ({ A: ref({ account_id: w.a.accountId, user_id: w.a.id }), B: ref({ account_id: w.b.accountId, user_id: w.b.id }) }),
    insert: async (w) => {
      const u = await linklessUser();
      return { body: { account_id: w.a.accountId, user_id: u, role: 'member' }, where: `user_id = ${lit(u)}` };
    },
    update: async (_w, r) => ({ patch: { role: 'member' }, applied: onRow(r, `role = 'member'`) }),
  },
  app_users: {
    table: 'public.app_users',
    rows: async () => {
      const [x, y] = await Promise.all([createUser('mx-sa', { superAdmin: true }), createUser('mx-sa', { superAdmin: true })]);
      return { A: ref({ user_id: x.id }), B: ref({ user_id: y.id }) };
    },
    insert: async () => {
      const u = (await createUser('mx-promote')).id;
      return { body: { user_id: u, role: 'super_admin' }, where: `user_id = ${lit(u)}` };
    },
    update: async (_w, r) => ({ patch: { created_at: PAST }, applied: onRow(r, `created_at = ${lit(PAST)}`) }),
  },
  account_specialists: {
    table: 'public.account_specialists',
    rows: async (w) => {
      await db().query('insert into public.account_specialists (account_id, specialist_id) values ($1, $3), ($2, $3)', [w.a.accountId, w.b.accountId, w.specialist]);
      return { A: ref({ account_id: w.a.accountId, specialist_id: w.specialist }), B: ref({ account_id: w.b.accountId, specialist_id: w.specialist }) };
    },
    insert: async (w) => ({ body: { account_id: w.a.accountId, specialist_id: w.spare }, where: `account_id = ${lit(w.a.accountId)} and specialist_id = ${lit(w.spare)}` }),
    update: async (_w, r) => ({ patch: { created_at: PAST }, applied: onRow(r, `created_at = ${lit(PAST)}`) }),
  },
  conversations: {
    table: 'public.conversations',
    rows: async (w) => ({ A: ref({ id: w.convA }), B: ref({ id: w.convB }) }),
    insert: async (w) => {
      const id = randomUUID();
      return { body: { id, account_id: w.a.accountId, specialist_id: w.spare }, where: `id = ${lit(id)}` };
    },
    update: async (_w, r) => ({ patch: { archived_at: PAST }, applied: onRow(r, `archived_at = ${lit(PAST)}`) }),
  },
  messages: {
    table: 'public.messages',
    rows: async (w) => ({ A: ref({ id: w.msgA }), B: ref({ id: w.msgB }) }),
    insert: async (w) => {
      const id = randomUUID();
      return { body: { id, conversation_id: w.convA, direction: 'user', text: 'Dobrý deň' }, where: `id = ${lit(id)}` };
    },
    update: async (_w, r) => ({ patch: { text: 'patched' }, applied: onRow(r, `text = 'patched'`) }),
  },
  read_cursors: {
    table: 'public.read_cursors',
    rows: async (w) => {
      await db().query('insert into public.read_cursors (user_id, conversation_id, last_read_message_id) values ($1, $2, $3), ($4, $5, $6)', [
        w.a.id,
        w.convA,
        w.msgA,
        w.b.id,
        w.convB,
        w.msgB,
      ]);
      return { A: ref({ user_id: w.a.id, conversation_id: w.convA }), B: ref({ user_id: w.b.id, conversation_id: w.convB }) };
    },
    insert: async (w, role) => {
      const self = selfOf(w, role);
      return {
        body: { user_id: self.id, conversation_id: w.convA, last_read_message_id: w.msgA },
        where: `user_id = ${lit(self.id)} and conversation_id = ${lit(w.convA)}`,
      };
    },
    update: async (w, r) => ({ patch: { last_read_message_id: w.msgA2 }, applied: onRow(r, `last_read_message_id = ${lit(w.msgA2)}`) }),
  },
  deleted_rows: {
    table: 'public.deleted_rows',
    rows: async (w) => {
      const [x, y] = [randomUUID(), randomUUID()];
      await db().query(
        `insert into public.deleted_rows (account_id, table_name, row_id, change_seq) values ($1, 'messages', $2, 1), ($3, 'messages', $4, 1)`,
        [w.a.accountId, x, w.b.accountId, y],
      );
      return { A: ref({ row_id: x }), B: ref({ row_id: y }) };
    },
    insert: async (w) => {
      const x = randomUUID();
      return { body: { account_id: w.a.accountId, table_name: 'messages', row_id: x, change_seq: 1 }, where: `row_id = ${lit(x)}` };
    },
    update: async (_w, r) => ({ patch: { change_seq: 999999 }, applied: onRow(r, 'change_seq = 999999') }),
  },
  impersonations: {
    table: 'public.impersonations',
    rows: async (w) => {
      const other = await createUser('mx-imp', { superAdmin: true });
      await db().query('insert into public.impersonations (admin_user_id, account_id) values ($1, $2), ($3, $4)', [w.admin.id, w.a.accountId, other.id, w.b.accountId]);
      return { A: ref({ admin_user_id: w.admin.id }), B: ref({ admin_user_id: other.id }) };
    },
    insert: async (w, role) => {
      const self = role === 'admin' || role === 'service' ? w.admin : selfOf(w, role);
      return { body: { admin_user_id: self.id, account_id: w.a.accountId }, where: `admin_user_id = ${lit(self.id)}` };
    },
    update: async (_w, r) => ({ patch: { started_at: PAST }, applied: onRow(r, `started_at = ${lit(PAST)}`) }),
  },
  audit_log: {
    table: 'public.audit_log',
    rows: async (w) => {
      const [x, y] = [`mx-${tag()}`, `mx-${tag()}`];
      await db().query('insert into public.audit_log (account_id, action) values ($1, $2), ($3, $4)', [w.a.accountId, x, w.b.accountId, y]);
      return { A: ref({ action: x }), B: ref({ action: y }) };
    },
    insert: async (w) => {
      const x = `mx-${tag()}`;
      return { body: { account_id: w.a.accountId, action: x }, where: `action = ${lit(x)}` };
    },
    update: async (_w, r) => ({ patch: { table_name: 'patched' }, applied: onRow(r, `table_name = 'patched'`) }),
  },
  chatwoot_config: {
    table: 'public.chatwoot_config',
    rows: async () => {
      await db().query('delete from public.chatwoot_config');
      const id = randomUUID();
      await db().query(`insert into public.chatwoot_config (id, api_base_url, account_id) values ($1, 'https://chat.example', 1)`, [id]);
      return { A: ref({ id }) };
    },
    insert: async () => {
      await db().query('delete from public.chatwoot_config');
      const id = randomUUID();
      return { body: { id, api_base_url: 'https://chat.example', account_id: 7 }, where: `id = ${lit(id)}` };
    },
    update: async (_w, r) => ({ patch: { api_base_url: 'https://patched.example' }, applied: onRow(r, `api_base_url = 'https://patched.example'`) }),
  },
  integration_events: {
    table: 'public.integration_events',
    rows: async () => {
      const [x, y] = [randomUUID(), randomUUID()];
      await db().query(`insert into public.integration_events (id, kind) values ($1, 'webhook.test'), ($2, 'webhook.test')`, [x, y]);
      return { A: ref({ id: x }), B: ref({ id: y }) };
    },
    insert: async () => {
      const x = randomUUID();
      return { body: { id: x, kind: 'webhook.test' }, where: `id = ${lit(x)}` };
    },
    update: async (_w, r) => ({ patch: { kind: 'patched' }, applied: onRow(r, `kind = 'patched'`) }),
  },
  ai_reply_jobs: {
    table: 'public.ai_reply_jobs',
    rows: async (w) => ({ A: ref({ id: await job(w, w.a.accountId, w.msgA, w.convA) }), B: ref({ id: await job(w, w.b.accountId, w.msgB, w.convB) }) }),
    insert: async (w) => ({
      body: { message_id: w.msgA2, conversation_id: w.convA, account_id: w.a.accountId, run_after: '2999-01-01T00:00:00Z' },
      where: `message_id = ${lit(w.msgA2)}`,
    }),
    update: async (_w, r) => ({ patch: { last_error: 'patched' }, applied: onRow(r, `last_error = 'patched'`) }),
  },
  push_subscriptions: {
    table: 'public.push_subscriptions',
    rows: async (w) => ({ A: ref({ id: await pushSub(w.a.id) }), B: ref({ id: await pushSub(w.b.id) }) }),
    insert: async (w, role) => {
      const endpoint = `https://fcm.googleapis.com/fcm/send/${randomUUID()}`;
      return { body: { user_id: selfOf(w, role).id, endpoint, p256dh: P256DH, auth: AUTH }, where: `endpoint = ${lit(endpoint)}` };
    },
    update: async (_w, r) => ({ patch: { user_agent: 'patched' }, applied: onRow(r, `user_agent = 'patched'`) }),
  },
  push_viewing: {
    table: 'public.push_viewing',
    rows: async (w) => {
      await db().query(`insert into public.push_viewing (user_id, session_id, conversation_id) values ($1, 's', $2), ($3, 's', $4)`, [w.a.id, w.convA, w.b.id, w.convB]);
      return { A: ref({ user_id: w.a.id }), B: ref({ user_id: w.b.id }) };
    },
    insert: async (w, role) => ({
      body: { user_id: selfOf(w, role).id, session_id: 'new', conversation_id: w.convA },
      where: `user_id = ${lit(selfOf(w, role).id)} and session_id = 'new'`,
    }),
    update: async (_w, r) => ({ patch: { updated_at: PAST }, applied: onRow(r, `updated_at = '${PAST}'`) }),
  },
  push_notifications: {
    table: 'public.push_notifications',
    rows: async (w) => ({ A: ref({ id: await pushNote(w.a.id, w.msgA, w.convA) }), B: ref({ id: await pushNote(w.b.id, w.msgB, w.convB) }) }),
    insert: async (w) => ({
      body: { message_id: w.msgA2, user_id: w.a.id, conversation_id: w.convA, due_at: '2999-01-01T00:00:00Z' },
      where: `message_id = ${lit(w.msgA2)}`,
    }),
    update: async (_w, r) => ({ patch: { last_error: 'patched' }, applied: onRow(r, `last_error = 'patched'`) }),
  },
  push_deliveries: {
    table: 'public.push_deliveries',
    rows: async (w) => {
      const [na, nb] = [await pushNote(w.a.id, w.msgA, w.convA), await pushNote(w.b.id, w.msgB, w.convB)];
      const [sa, sb] = [await pushSub(w.a.id), await pushSub(w.b.id)];
      await db().query('insert into public.push_deliveries (notification_id, subscription_id) values ($1, $2), ($3, $4)', [na, sa, nb, sb]);
      return { A: ref({ notification_id: na }), B: ref({ notification_id: nb }) };
    },
    insert: async (w) => {
      const n = await pushNote(w.a.id, w.msgA2, w.convA);
      return { body: { notification_id: n, subscription_id: await pushSub(w.a.id) }, where: `notification_id = ${lit(n)}` };
    },
    update: async (_w, r) => ({ patch: { http_status: 599 }, applied: onRow(r, `http_status = 599`) }),
  },
  chatwoot_contacts: {
    table: 'public.chatwoot_contacts',
    rows: async (w) => {
      await db().query(`insert into public.chatwoot_contacts (account_id, inbox_id, source_id, pubsub_token) values ($1, 1, 's', 't'), ($2, 1, 's', 't')`, [
        w.a.accountId,
        w.b.accountId,
      ]);
      return { A: ref({ account_id: w.a.accountId }), B: ref({ account_id: w.b.accountId }) };
    },
    insert: async (w) => ({ body: { account_id: w.a.accountId, inbox_id: 2, source_id: 's', pubsub_token: 't' }, where: `account_id = ${lit(w.a.accountId)} and inbox_id = 2` }),
    update: async (_w, r) => ({ patch: { pubsub_token: 'patched' }, applied: onRow(r, `pubsub_token = 'patched'`) }),
  },
  chatwoot_diagnostics: {
    table: 'public.chatwoot_diagnostics',
    rows: async () => {
      const [a, b] = [`https://a-${randomUUID()}.test`, `https://b-${randomUUID()}.test`];
      await db().query(
        `insert into public.chatwoot_diagnostics (api_base_url, chatwoot_account_id, inbox_id, contact_source_id, conversation_id) values ($1, 1, 1, 's', 1), ($2, 1, 1, 's', 1)`,
        [a, b],
      );
      return { A: ref({ api_base_url: a }), B: ref({ api_base_url: b }) };
    },
    insert: async () => {
      const url = `https://i-${randomUUID()}.test`;
      return { body: { api_base_url: url, chatwoot_account_id: 1, inbox_id: 1, contact_source_id: 's', conversation_id: 1 }, where: `api_base_url = ${lit(url)}` };
    },
    update: async (_w, r) => ({ patch: { contact_source_id: 'patched' }, applied: onRow(r, `contact_source_id = 'patched'`) }),
  },
  v_admin_accounts: {
    table: 'public.accounts',
    rows: async (w) => ({ A: ref({ id: w.a.accountId }), B: ref({ id: w.b.accountId }) }),
    insert: async () => {
      const id = randomUUID();
      return { body: { id, name: 'Cez pohľad' }, where: `id = ${lit(id)}` };
    },
    update: async (_w, r) => ({ patch: { name: 'patched' }, applied: onRow(r, `name = 'patched'`) }),
  },
};

const exists = async (table: string, where: string) => (await rows(`select 1 from ${table} where ${where}`)).length > 0;

async function observe(name: string, op: Op, role: Role): Promise<Cell> {
  const spec = SPECS[name]!;
  const w = await world();
  const caller = callerOf(w, role);
  if (op === 'insert') {
    const { body, where } = await spec.insert(w, role);
    await rest(caller, 'POST', name, body);
    return (await exists(spec.table, where)) ? 'yes' : 'no';
  }
  const fixtures = await spec.rows(w);
  if (op === 'select') {
    let seen = '';
    for (const label of ['A', 'B'] as const) {
      const r = fixtures[label];
      if (!r) continue;
      const res = await rest(caller, 'GET', `${name}?select=*&${r.filter}`);
      if (res.status === 200 && Array.isArray(res.body) && res.body.length === 1) seen += label;
    }
    return (seen || '-') as Cell;
  }
  if (op === 'update') {
    const { patch, applied } = await spec.update(w, fixtures.A);
    await rest(caller, 'PATCH', `${name}?${fixtures.A.filter}`, patch);
    return (await exists(spec.table, applied)) ? 'yes' : 'no';
  }
  await rest(caller, 'DELETE', `${name}?${fixtures.A.filter}`);
  return (await exists(spec.table, fixtures.A.where)) ? 'no' : 'yes';
}

afterAll(closeDb);

describe('access matrix', () => {
  it('covers every table and view of the public schema', async () => {
    const relations = await rows<{ relname: string }>(
      `select relname from pg_class where relnamespace = 'public'::regnamespace and relkind in ('r', 'v', 'm', 'p') order by 1`,
    );
    expect(relations.map((r) => r.relname).sort()).toEqual(Object.keys(MATRIX).sort());
  });

  for (const [name, expectations] of Object.entries(MATRIX)) {
    describe(name, () => {
      for (const op of OPS) {
        it(`${op}: ${ROLES.map((r, i) => `${r}=${expectations[op][i]}`).join(' ')}`, async () => {
          const observed: Record<string, Cell> = {};
          const expected: Record<string, Cell> = {};
          for (const [i, role] of ROLES.entries()) {
            observed[role] = await observe(name, op, role);
            expected[role] = expectations[op][i]!;
          }
          expect(observed).toEqual(expected);
        });
      }
    });
  }
});

describe('functions', () => {
  // Every RPC of the public schema (extensions' functions aside), called with the right argument names.
  async function rpcs(): Promise<{ name: string; args: string[] }[]> {
    return rows<{ name: string; args: string[] }>(
      `select p.proname as name, coalesce(p.proargnames[1:p.pronargs], '{}') as args
         from pg_proc p
        where p.pronamespace = 'public'::regnamespace and p.prorettype <> 'trigger'::regtype
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
        order by 1`,
    );
  }

  it('anon can execute none of them', async () => {
    const list = await rpcs();
    expect(list.length).toBeGreaterThan(20);
    for (const f of list) {
      const res = await rest(anon, 'POST', `rpc/${f.name}`, Object.fromEntries(f.args.map((a) => [a, null])));
      expect([f.name, res.status]).toEqual([f.name, 401]);
    }
  });

  it('the AI worker RPCs are for the service role only', async () => {
    const w = await world();
    for (const [fn, args] of [
      ['claim_ai_reply_job', { p_worker: 'intruder' }],
      ['complete_ai_reply_job', { p_job_id: randomUUID(), p_text: 'x' }],
      ['fail_ai_reply_job', { p_job_id: randomUUID(), p_error: 'x', p_retry_in_ms: 0, p_final_text: null }],
    ] as const) {
      for (const caller of [w.a.caller, w.admin.caller]) {
        const res = await rest(caller, 'POST', `rpc/${fn}`, args);
        expect([fn, res.status]).toEqual([fn, 403]);
      }
    }
  });
});
