// R13.5 / R13.9: 'Zastaviť' and 'Skúsiť znova' against the worker's writes of the same reply, with the
// interleaving forced rather than hoped for. The worker's call (ai_reply_progress or
// finish_ai_reply_job, as the service role on a connection of its own) runs inside an open
// transaction, so it holds what it locked; the member's call goes through PostgREST as the real app
// sends it and is seen blocked behind the worker's backend (pg_blocking_pids); then the worker
// commits and the member's call completes. Each case asserts what the member's devices would show.
// Before 20261130120000 a Stop blocked behind the worker's final write marked a whole answer
// 'stopped' (it had read the message before waiting), and a second retry re-queued a running job.
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createUser, db, errorOf, one, rpc, stack, waitFor, type RestResult, type TestUser } from './helpers.ts';

const WORKER = 'race-worker';

interface Reply {
  id: string;
  text: string;
  payload: Record<string, unknown>;
}

let member: TestUser;
let worker: pg.Client;

/** A conversation with an AI specialist and its reply job, claimed by WORKER (the lease far ahead,
 *  so the stack's own worker never claims it), and the reply's first piece written. */
async function streamingReply(): Promise<{ job: string; reply: Reply }> {
  const conv = await createConversation(member.accountId, { ai: true });
  const { id: job } = await one<{ id: string }>(
    `with m as (insert into public.messages (conversation_id, direction, text) values ($1, 'user', 'Otázka') returning id, account_id)
     insert into public.ai_reply_jobs (message_id, conversation_id, account_id, status, locked_by, attempts, run_after)
     select m.id, $1, m.account_id, 'running', $2, 1, now() + interval '1 day' from m returning id`,
    [conv, WORKER],
  );
  expect(await progress(job, 'Prvá časť')).toBe('go');
  return { job, reply: await replyOf(job) };
}

async function progress(job: string, text: string | null): Promise<string> {
  const r = await worker.query<{ r: string }>('select public.ai_reply_progress($1, $2, $3) as r', [job, WORKER, text]);
  return r.rows[0]!.r;
}

const replyOf = (job: string) =>
  one<Reply>('select id, text, payload from public.messages where client_correlation_id = $1', [job]);
const jobOf = (job: string) =>
  one<{ status: string; stop_requested_at: Date | null; locked_by: string | null }>(
    'select status, stop_requested_at, locked_by from public.ai_reply_jobs where id = $1',
    [job],
  );

const flags = (p: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(p).filter(([k]) => ['streaming', 'stopped', 'interrupted'].includes(k)));

/** Resolves once some backend waits for a lock that backend `pid` holds (an event, polled). */
const blockedBehind = (pid: number, what: string) =>
  waitFor(
    async () => (await one<{ n: number }>('select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))', [pid])).n > 0,
    what,
  );

/** Runs `sql` as the worker inside a transaction left open, starts the member's call, waits until
 *  that call is blocked behind the worker's backend, commits, and answers the member's result. */
async function memberCallBehindWorker(sql: string, params: unknown[], call: () => Promise<RestResult>): Promise<{ worker: string; member: RestResult }> {
  await worker.query('begin');
  let res: string;
  try {
    res = (await worker.query<{ r: string }>(sql, params)).rows[0]!.r;
  } catch (err) {
    await worker.query('rollback');
    throw err;
  }
  const pid = (worker as unknown as { processID: number }).processID;
  const pending = call();
  await blockedBehind(pid, "the member's call blocked behind the worker's write");
  await worker.query('commit');
  return { worker: res, member: await pending };
}

/** A connection acting as the member inside an open transaction (as PostgREST runs the app's call);
 *  `commit` parks the reply's job out of the stack worker's reach before the commit. */
async function memberTransaction(): Promise<{ client: pg.Client; pid: number; commit: (job: string) => Promise<void> }> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  await client.query('begin');
  await client.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [
    JSON.stringify({ sub: member.id, role: 'authenticated' }),
  ]);
  const pid = (client as unknown as { processID: number }).processID;
  const commit = async (job: string) => {
    // The stack's own worker must not take the queued job: this test plays the worker.
    await client.query('reset role');
    await client.query(`update public.ai_reply_jobs set run_after = now() + interval '1 day' where id = $1`, [job]);
    await client.query('commit');
  };
  return { client, pid, commit };
}

beforeAll(async () => {
  member = await createUser('stoprace');
  worker = new pg.Client({ connectionString: stack.databaseUrl });
  await worker.connect();
  await worker.query('set role service_role');
});
afterEach(async () => {
  // A failed case must not leave the worker's transaction open for the next one.
  await worker.query('rollback').catch(() => undefined);
});
afterAll(async () => {
  await worker?.end();
  await closeDb();
});

describe('R13.9 Stop and retry serialise with the worker\'s writes', () => {
  it('R13.5 R13.9 a Stop arriving while the worker writes a chunk: the write commits, then the next write answers stop and writes nothing', async () => {
    const { job, reply } = await streamingReply();
    const r = await memberCallBehindWorker(
      'select public.ai_reply_progress($1, $2, $3) as r',
      [job, WORKER, 'Prvá časť, druhá časť'],
      () => rpc(member.caller, 'stop_ai_reply', { p_message_id: reply.id }),
    );
    expect(r.worker).toBe('go');
    expect(r.member.status).toBeLessThan(300);
    expect((await jobOf(job)).stop_requested_at).not.toBeNull();
    // The worker's next tick, with more text from the provider: refused before it writes.
    expect(await progress(job, 'Prvá časť, druhá časť, tretia časť')).toBe('stop');
    expect((await replyOf(job)).text).toBe('Prvá časť, druhá časť');
    const fin = await worker.query<{ r: string }>('select public.finish_ai_reply_job($1, $2, $3, $4) as r', [
      job,
      WORKER,
      'Prvá časť, druhá časť',
      'stopped',
    ]);
    expect(fin.rows[0]!.r).toBe('stopped');
    const done = await replyOf(job);
    expect(done.text).toBe('Prvá časť, druhá časť');
    expect(flags(done.payload)).toEqual({ stopped: true });
  });

  it('R13.5 R13.9 a Stop arriving while the worker writes the whole answer leaves it whole, not stopped', async () => {
    const { job, reply } = await streamingReply();
    const whole = 'Prvá časť, druhá časť, koniec.';
    const r = await memberCallBehindWorker(
      'select public.finish_ai_reply_job($1, $2, $3, $4) as r',
      [job, WORKER, whole, 'done'],
      () => rpc(member.caller, 'stop_ai_reply', { p_message_id: reply.id }),
    );
    expect(r.worker).toBe('done');
    expect(r.member.status).toBeLessThan(300);
    const after = await replyOf(job);
    expect(after.text).toBe(whole);
    expect(flags(after.payload)).toEqual({});
    expect((await jobOf(job)).status).toBe('done');
  });

  it('R13.4 R13.9 a Stop arriving while the worker marks the answer interrupted leaves it interrupted and retryable', async () => {
    const { job, reply } = await streamingReply();
    const r = await memberCallBehindWorker(
      'select public.finish_ai_reply_job($1, $2, $3, $4) as r',
      [job, WORKER, 'Prvá časť', 'interrupted'],
      () => rpc(member.caller, 'stop_ai_reply', { p_message_id: reply.id }),
    );
    expect(r.worker).toBe('interrupted');
    expect(r.member.status).toBeLessThan(300);
    expect(flags((await replyOf(job)).payload)).toEqual({ interrupted: true });
    expect((await jobOf(job)).status).toBe('failed');
    // 'Skúsiť znova' still continues it.
    const m = await memberTransaction();
    try {
      await m.client.query('select public.retry_ai_reply($1)', [reply.id]);
      await m.commit(job);
    } finally {
      await m.client.end();
    }
    expect((await jobOf(job)).status).toBe('pending');
    expect(flags((await replyOf(job)).payload)).toEqual({ streaming: true });
    await db().query(`update public.ai_reply_jobs set status = 'done' where id = $1`, [job]);
  });

  it('R13.4 R13.9 two retries of one interrupted answer at once: the second is the 400 it is when sequential, the job queued once', async () => {
    const { job, reply } = await streamingReply();
    await worker.query('select public.finish_ai_reply_job($1, $2, $3, $4)', [job, WORKER, 'Prvá časť', 'interrupted']);
    // The first retry holds the job (its transaction still open); the second, through PostgREST, waits.
    const first = await memberTransaction();
    try {
      await first.client.query('select public.retry_ai_reply($1)', [reply.id]);
      const second = rpc(member.caller, 'retry_ai_reply', { p_message_id: reply.id });
      await blockedBehind(first.pid, 'the second retry blocked behind the first');
      await first.commit(job);
      const res = await second;
      expect(res.status).toBe(400);
      expect(errorOf(res).message).toBe('Only an interrupted answer can be retried');
    } finally {
      await first.client.end();
    }
    expect(flags((await replyOf(job)).payload)).toEqual({ streaming: true });
    expect((await jobOf(job)).status).toBe('pending');
    await db().query(`update public.ai_reply_jobs set status = 'done' where id = $1`, [job]);
  });
});
