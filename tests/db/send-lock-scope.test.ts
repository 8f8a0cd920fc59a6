// What a send writes and how long it holds the account's change counter (issue 19, migration
// 20261124100000_send_message_cost.sql). The change feed's gap-free rule needs every number taken by
// an UPDATE of the account row that holds its lock until commit; nothing more:
//   * one UPDATE of the account row per new message (its number and its conversation's, reserved
//     together), numbers still contiguous and in the order the realtime events leave;
//   * a repeated upsert is answered while another conversation of the same account holds the counter
//     (it takes no number, so it needs no account lock);
//   * a new message of another conversation of that account does wait for the counter (gap-free) and
//     then takes the next number;
//   * attack: the reservation cannot be forged by a statement a client issues.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeDb,
  createConversation,
  createUser,
  db,
  ok,
  one,
  rest,
  rows,
  sleep,
  stack,
  waitFor,
  type TestUser,
} from './helpers.ts';

interface MessageRow {
  id: string;
  change_seq: number | string;
}

let user: TestUser;

/** A connection acting as the member, the way PostgREST presents a request to PostgreSQL. */
async function memberSession(u: TestUser): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: stack.databaseUrl });
  await c.connect();
  await c.query('begin');
  await c.query(
    `select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`,
    [JSON.stringify({ sub: u.id, role: 'authenticated' })],
  );
  return c;
}

const accountSeq = async (accountId: string) =>
  Number(
    (await one<{ change_seq: string }>('select change_seq from public.accounts where id = $1', [accountId]))
      .change_seq,
  );

beforeAll(async () => {
  user = await createUser('lockscope');
});
afterAll(closeDb);

describe('a send and the account counter', () => {
  it('one account UPDATE per new message; message n, its conversation n + 1, as before', async () => {
    const conv = await createConversation(user.accountId);
    const before = await accountSeq(user.accountId);
    const c = await memberSession(user);
    try {
      const m = (
        await c.query<MessageRow>('select id, change_seq from public.send_message($1, $2, $3)', [
          conv,
          'Ahoj',
          randomUUID(),
        ])
      ).rows[0]!;
      // This transaction's own row counts (pg_stat_xact_*): before 20261124100000 the account row
      // was updated twice per send.
      const stat = (
        await c.query<{ n_tup_upd: string }>(
          `select n_tup_upd from pg_stat_xact_user_tables where relid = 'public.accounts'::regclass`,
        )
      ).rows[0]!;
      expect(Number(stat.n_tup_upd)).toBe(1);
      const left = (
        await c.query<{ v: string | null }>(`select current_setting('poradna.conversation_seq', true) as v`)
      ).rows[0]!.v;
      expect(left ?? '').toBe(''); // the reservation does not outlive the statement
      await c.query('commit');
      const conversation = await one<{ change_seq: string }>(
        'select change_seq from public.conversations where id = $1',
        [conv],
      );
      expect(Number(m.change_seq)).toBe(before + 1);
      expect(Number(conversation.change_seq)).toBe(before + 2);
      expect(await accountSeq(user.accountId)).toBe(before + 2);
    } finally {
      await c.end();
    }
  });

  it('a multi-row server insert, in and out of time order, leaves contiguous numbers and the newest last_message_at', async () => {
    const conv = await createConversation(user.accountId);
    const before = await accountSeq(user.accountId);
    await db().query(
      `insert into public.messages (conversation_id, direction, text, created_at)
       select $1, 'specialist', 'r' || g, now() + make_interval(secs => t)
         from unnest(array[1, 3, 2, 5, 4]) with ordinality as x(t, g)`,
      [conv],
    );
    const after = await accountSeq(user.accountId);
    const numbers = (
      await rows<{ change_seq: string }>(
        `select change_seq from public.messages where account_id = $1 and change_seq > $2
         union all select change_seq from public.conversations where account_id = $1 and change_seq > $2`,
        [user.accountId, before],
      )
    ).map((r) => Number(r.change_seq));
    // Superseded conversation versions are holes by design; every other number is a stored row.
    const stored = new Set(numbers);
    const conversationVersions = 3; // moved by the rows at +1 s, +3 s and +5 s
    expect(stored.size).toBe(numbers.length);
    expect(after - before).toBe(5 + conversationVersions);
    expect(Math.max(...numbers)).toBe(after);
    const c = await one<{ later: boolean }>(
      `select last_message_at = (select max(created_at) from public.messages where conversation_id = $1) as later
         from public.conversations where id = $1`,
      [conv],
    );
    expect(c.later).toBe(true);
  });

  it('a repeated upsert into another conversation is answered while a send of the same account holds the counter', async () => {
    const convA = await createConversation(user.accountId);
    const convB = await createConversation(user.accountId);
    const cid = randomUUID();
    const first = ok<MessageRow[]>(
      await rest(
        user.caller,
        'POST',
        'messages?on_conflict=conversation_id,client_correlation_id',
        { conversation_id: convB, direction: 'user', text: 'raz', client_correlation_id: cid },
        {
          prefer: 'resolution=merge-duplicates,return=representation',
        },
      ),
    )[0]!;
    const holder = await memberSession(user);
    try {
      await holder.query('select public.send_message($1, $2, $3)', [convA, 'drží počítadlo', randomUUID()]);
      // The holder's transaction is open: the account row is locked until it ends.
      const repeat = rest(
        user.caller,
        'POST',
        'messages?on_conflict=conversation_id,client_correlation_id',
        { conversation_id: convB, direction: 'user', text: 'raz', client_correlation_id: cid },
        {
          prefer: 'resolution=merge-duplicates,return=representation',
        },
      );
      const answered = await Promise.race([
        repeat.then((r) => r),
        sleep(5000).then(() => 'waiting' as const),
      ]);
      expect(answered).not.toBe('waiting');
      expect(ok<MessageRow[]>(answered as Awaited<typeof repeat>)[0]).toMatchObject({
        id: first.id,
        change_seq: first.change_seq,
      });
    } finally {
      await holder.query('commit');
      await holder.end();
    }
  });

  it('a new message of another conversation waits for the counter (gap-free), then takes the next number', async () => {
    const convA = await createConversation(user.accountId);
    const convB = await createConversation(user.accountId);
    const holder = await memberSession(user);
    let held: MessageRow;
    let waiter: Promise<MessageRow> | undefined;
    try {
      held = (
        await holder.query<MessageRow>('select id, change_seq from public.send_message($1, $2, $3)', [
          convA,
          'prvá',
          randomUUID(),
        ])
      ).rows[0]!;
      const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      waiter = rest(user.caller, 'POST', 'rpc/send_message', {
        p_conversation_id: convB,
        p_text: 'druhá',
        p_client_correlation_id: randomUUID(),
      }).then((r) => ok<MessageRow>(r));
      // Blocked by the holder, and only by it.
      await waitFor(
        async () =>
          (
            await rows<{ pid: number }>(
              `select pid from pg_stat_activity where $1 = any(pg_blocking_pids(pid)) and query like '%send_message%'`,
              [holderPid],
            )
          ).length > 0,
        'the second send to wait for the holder',
      );
    } finally {
      await holder.query('commit');
      await holder.end();
    }
    const second = await waiter;
    // The holder took n (message) and n + 1 (its conversation); the waiter's message comes next.
    expect(Number(second.change_seq)).toBe(Number(held!.change_seq) + 2);
  });

  it('attack: a client statement cannot hand its conversation update a reserved number', async () => {
    const conv = await createConversation(user.accountId);
    const before = await accountSeq(user.accountId);
    const c = await memberSession(user);
    try {
      // As if a client could set the reservation: an archive (the one update a member may make)
      // naming an old number. Only an update made from inside the message trigger may use it.
      await c.query(`select set_config('poradna.conversation_seq', $1, true)`, [`${conv}/1`]);
      const r = (
        await c.query<{ change_seq: string }>(
          'update public.conversations set archived_at = now() where id = $1 returning change_seq',
          [conv],
        )
      ).rows[0]!;
      await c.query('commit');
      expect(Number(r.change_seq)).toBe(before + 1);
      expect(await accountSeq(user.accountId)).toBe(before + 1);
    } finally {
      await c.end();
    }
  });
});
