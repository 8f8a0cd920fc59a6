// The account change feed under concurrent writers (ARCHITECTURE.md invariant 4: no gaps). Writers on
// separate connections interleave transactions with random sleeps while a puller polls sync_pull
// through PostgREST with a small page size. Checked:
//   * allocation: the numbers taken by committed transactions are exactly base+1..N (unique, no
//     holes; a rolled-back transaction's numbers are handed out again);
//   * order: every page holds only numbers above the previous cursor, ascending, and the cursor is
//     the page's largest number, so the puller's cursor only moves forward;
//   * no late commits: every committed message reaches the puller. A number committed after the
//     puller's cursor had passed it would never be asked for again, so "every message seen" is
//     exactly "the puller never saw n+k before n committed";
//   * convergence with mixed writes (cursors, archive flags): the puller's last version of every row
//     is the database's.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createUser, db, ok, one, rest, rpc, serverMessage, sleep, stack, type Caller, type TestUser } from './helpers.ts';

interface Versioned {
  change_seq: number | string;
}
interface PullPage {
  conversations: (Versioned & { id: string; specialist: { id: string } | null; archived_at: string | null })[];
  messages: (Versioned & { id: string; conversation_id: string })[];
  read_cursors: (Versioned & { user_id: string; conversation_id: string; last_read_message_id: string | null })[];
  deleted: (Versioned & { table: string; id: string })[];
  cursor: number;
  has_more: boolean;
  account_change_seq: number;
}

const seqOf = (r: Versioned) => Number(r.change_seq);

function pageNumbers(p: PullPage): number[] {
  return [...p.conversations, ...p.messages, ...p.read_cursors, ...p.deleted].map(seqOf).sort((a, b) => a - b);
}

async function pull(caller: Caller, since: number, limit: number): Promise<PullPage> {
  return ok<PullPage>(await rpc(caller, 'sync_pull', { p_since: since, p_limit: limit }));
}

/** A puller that checks every page as it goes and keeps the newest version of every row it saw. */
class Puller {
  cursor = 0;
  pulls = 0;
  readonly seenNumbers: number[] = [];
  readonly messages = new Map<string, number>();
  readonly conversations = new Map<string, { seq: number; archived_at: string | null }>();
  readonly cursors = new Map<string, { seq: number; last: string | null }>();
  readonly deleted = new Map<string, number>();

  constructor(
    private readonly caller: Caller,
    private readonly limit: number,
  ) {}

  async once(): Promise<PullPage> {
    const page = await pull(this.caller, this.cursor, this.limit);
    this.pulls++;
    const nums = pageNumbers(page);
    expect(nums.length).toBeLessThanOrEqual(this.limit);
    if (page.has_more) expect(nums.length).toBe(this.limit);
    for (const n of nums) expect(n).toBeGreaterThan(this.cursor);
    expect(new Set(nums).size).toBe(nums.length);
    expect(Number(page.cursor)).toBe(nums.length ? nums[nums.length - 1] : this.cursor);
    for (const kind of [page.conversations, page.messages, page.read_cursors, page.deleted]) {
      const s = kind.map(seqOf);
      expect(s).toEqual([...s].sort((a, b) => a - b));
    }
    for (const m of page.messages) this.messages.set(m.id, seqOf(m));
    for (const c of page.conversations) this.conversations.set(c.id, { seq: seqOf(c), archived_at: c.archived_at });
    for (const r of page.read_cursors) this.cursors.set(`${r.user_id}/${r.conversation_id}`, { seq: seqOf(r), last: r.last_read_message_id });
    for (const d of page.deleted) this.deleted.set(`${d.table}/${d.id}`, seqOf(d));
    this.seenNumbers.push(...nums);
    this.cursor = Number(page.cursor);
    return page;
  }

  async untilDone(): Promise<void> {
    for (;;) {
      const page = await this.once();
      if (!page.has_more) return;
    }
  }
}

async function connect(): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: stack.databaseUrl });
  await c.connect();
  return c;
}

/** Runs fn as the member, the way PostgREST would: role authenticated with the user's claims. */
async function asMember<T>(c: pg.Client, user: TestUser, fn: () => Promise<T>): Promise<T> {
  await c.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: user.id, role: 'authenticated', email: user.email })]);
  await c.query('set local role authenticated');
  return fn();
}

const rand = (n: number) => Math.floor(Math.random() * n);

afterAll(closeDb);

describe('sync_pull under concurrent writers', () => {
  let user: TestUser;
  let conversations: string[];

  beforeAll(async () => {
    user = await createUser('feed');
    conversations = [];
    for (let i = 0; i < 4; i++) conversations.push(await createConversation(user.accountId));
  });

  it('8 writers x 50 interleaved transactions: numbers are contiguous and the puller misses nothing', async () => {
    const base = Number((await one<{ change_seq: string }>('select change_seq from public.accounts where id = $1', [user.accountId])).change_seq);
    const committedNumbers: number[] = [];
    const committedMessages = new Map<string, number>();
    let rolledBack = 0;

    const writer = async () => {
      const c = await connect();
      try {
        for (let i = 0; i < 50; i++) {
          await c.query('begin');
          const mine: number[] = [];
          const ids: [string, number][] = [];
          try {
            await asMember(c, user, async () => {
              if (rand(3) === 0) await sleep(rand(3));
              // One conversation per transaction, as every write path of the product does: message
              // inserts lock the conversation before the account's counter (see lock_conversation).
              const conv = conversations[rand(conversations.length)]!;
              for (let k = 0; k < 1 + rand(3); k++) {
                const m = (await c.query<{ id: string; change_seq: string }>(
                  `insert into public.messages (conversation_id, direction, text) values ($1, 'user', $2) returning id, change_seq`,
                  [conv, `w${i}.${k}`],
                )).rows[0]!;
                const cv = (await c.query<{ change_seq: string }>('select change_seq from public.conversations where id = $1', [conv])).rows[0]!;
                mine.push(Number(m.change_seq), Number(cv.change_seq));
                ids.push([m.id, Number(m.change_seq)]);
              }
              await sleep(rand(4)); // hold the numbers (and the account's lock) while others wait
            });
            if (rand(10) === 0) {
              await c.query('rollback');
              rolledBack++;
            } else {
              await c.query('commit');
              committedNumbers.push(...mine);
              for (const [id, seq] of ids) committedMessages.set(id, seq);
            }
          } catch (err) {
            await c.query('rollback');
            throw err;
          }
        }
      } finally {
        await c.end();
      }
    };

    const puller = new Puller(user.caller, 7);
    let writing = true;
    const pulling = (async () => {
      while (writing) await puller.once();
    })();
    await Promise.all(Array.from({ length: 8 }, writer)).finally(() => {
      writing = false;
    });
    await pulling;
    await puller.untilDone();

    const final = Number((await one<{ change_seq: string }>('select change_seq from public.accounts where id = $1', [user.accountId])).change_seq);
    const sorted = [...committedNumbers].sort((a, b) => a - b);
    expect(sorted).toEqual(Array.from({ length: final - base }, (_, i) => base + 1 + i));
    expect(rolledBack).toBeGreaterThan(0);

    expect(puller.pulls).toBeGreaterThan(20); // it really pulled while the writers ran
    const missed = [...committedMessages.keys()].filter((id) => !puller.messages.has(id));
    expect(missed).toEqual([]);
    for (const [id, seq] of committedMessages) expect(puller.messages.get(id)).toBe(seq);
    expect(new Set(puller.seenNumbers).size).toBe(puller.seenNumbers.length);
    expect(puller.seenNumbers).toEqual([...puller.seenNumbers].sort((a, b) => a - b));
    for (const n of puller.seenNumbers) expect(n).toBeLessThanOrEqual(final);
  });

  it('mixed writers (messages, read cursors of two users, archive flags) converge to the database', async () => {
    const second = await createUser('feed-second');
    // A second member of the same account: its cursors take numbers the first user never sees.
    await db().query('delete from public.account_users where user_id = $1', [second.id]);
    await db().query(`insert into public.account_users (account_id, user_id, role) values ($1, $2, 'member')`, [user.accountId, second.id]);
    const seedMessages = await Promise.all(conversations.map((c) => serverMessage(c, 'specialist', 'seed')));

    const writer = async (who: TestUser) => {
      const c = await connect();
      try {
        for (let i = 0; i < 40; i++) {
          await c.query('begin');
          await asMember(c, who, async () => {
            const idx = rand(conversations.length);
            const conv = conversations[idx]!;
            const op = rand(3);
            if (op === 0) {
              await c.query(`insert into public.messages (conversation_id, direction, text) values ($1, 'user', 'mixed')`, [conv]);
            } else if (op === 1) {
              const latest = (await c.query<{ id: string }>(
                'select id from public.messages where conversation_id = $1 order by created_at desc, id desc limit 1 offset $2',
                [conv, rand(3)],
              )).rows[0];
              await c.query('select public.mark_read($1, $2)', [conv, latest?.id ?? seedMessages[idx]!.id]);
            } else {
              await c.query(`update public.conversations set archived_at = case when archived_at is null then now() end where id = $1`, [conv]);
            }
            await sleep(rand(3));
          });
          await c.query(rand(8) === 0 ? 'rollback' : 'commit');
        }
      } finally {
        await c.end();
      }
    };

    const puller = new Puller(user.caller, 5);
    let writing = true;
    const pulling = (async () => {
      while (writing) await puller.once();
    })();
    await Promise.all([writer(user), writer(user), writer(second), writer(second), writer(user), writer(second)]).finally(() => {
      writing = false;
    });
    await pulling;
    await puller.untilDone();

    const convs = await db().query<{ id: string; change_seq: string; archived_at: Date | null }>(
      'select id, change_seq, archived_at from public.conversations where account_id = $1',
      [user.accountId],
    );
    for (const c of convs.rows) {
      expect(puller.conversations.get(c.id)?.seq).toBe(Number(c.change_seq));
      expect(puller.conversations.get(c.id)?.archived_at ? new Date(puller.conversations.get(c.id)!.archived_at!).toISOString() : null).toBe(
        c.archived_at ? c.archived_at.toISOString() : null,
      );
    }
    const msgs = await db().query<{ id: string; change_seq: string }>('select id, change_seq from public.messages where account_id = $1', [user.accountId]);
    for (const m of msgs.rows) expect(puller.messages.get(m.id)).toBe(Number(m.change_seq));
    const cursors = await db().query<{ user_id: string; conversation_id: string; change_seq: string; last_read_message_id: string }>(
      'select user_id, conversation_id, change_seq, last_read_message_id from public.read_cursors where account_id = $1',
      [user.accountId],
    );
    const own = cursors.rows.filter((r) => r.user_id === user.id);
    expect(own.length).toBeGreaterThan(0);
    expect(cursors.rows.some((r) => r.user_id === second.id)).toBe(true);
    for (const r of own) expect(puller.cursors.get(`${r.user_id}/${r.conversation_id}`)).toEqual({ seq: Number(r.change_seq), last: r.last_read_message_id });
    // The second user's cursors never reach the first user.
    expect([...puller.cursors.keys()].every((k) => k.startsWith(user.id))).toBe(true);
  });
});

describe('sync_pull pages and tombstones', () => {
  it('any page size walks the same rows, and has_more is false only at the end', async () => {
    const u = await createUser('pages');
    const convs = [await createConversation(u.accountId), await createConversation(u.accountId)];
    for (let i = 0; i < 12; i++) await serverMessage(convs[i % 2]!, i % 3 ? 'specialist' : 'user', `m${i}`);
    const whole = await pull(u.caller, 0, 1000);
    expect(whole.has_more).toBe(false);
    expect(Number(whole.cursor)).toBe(Number(whole.account_change_seq));
    const all = pageNumbers(whole);
    expect(whole.messages).toHaveLength(12);
    expect(whole.conversations).toHaveLength(2);
    expect(whole.conversations[0]!.specialist).toMatchObject({ id: expect.any(String) as string });

    for (const limit of [1, 2, 3, 5, 8]) {
      const p = new Puller(u.caller, limit);
      await p.untilDone();
      expect(p.seenNumbers).toEqual(all);
    }
    // Nothing new: the cursor stays.
    const empty = await pull(u.caller, Number(whole.cursor), 10);
    expect(pageNumbers(empty)).toEqual([]);
    expect(Number(empty.cursor)).toBe(Number(whole.cursor));
    expect(empty.has_more).toBe(false);
  });

  it('deleted messages and conversations arrive as numbered tombstones', async () => {
    const u = await createUser('tombs');
    const keep = await createConversation(u.accountId);
    const drop = await createConversation(u.accountId);
    const m1 = await serverMessage(keep, 'specialist', 'to delete');
    await serverMessage(drop, 'specialist', 'goes with its conversation');
    const start = Number((await pull(u.caller, 0, 1000)).cursor);

    expect((await rest({ kind: 'service' }, 'DELETE', `messages?id=eq.${m1.id}`)).status).toBeLessThan(300);
    expect((await rest({ kind: 'service' }, 'DELETE', `conversations?id=eq.${drop}`)).status).toBeLessThan(300);

    const after = await pull(u.caller, start, 1000);
    expect(after.deleted.map((d) => ({ table: d.table, id: d.id }))).toEqual([
      { table: 'messages', id: m1.id },
      { table: 'conversations', id: drop },
    ]);
    expect(pageNumbers(after)).toEqual([start + 1, start + 2]);
  });

  it('a member pulls only their own account', async () => {
    const a = await createUser('own-a');
    const b = await createUser('own-b');
    const convA = await createConversation(a.accountId);
    await serverMessage(convA, 'specialist', 'only for A');
    const page = await pull(b.caller, 0, 1000);
    expect(page.conversations).toEqual([]);
    expect(page.messages).toEqual([]);
    const anonPull = await rpc({ kind: 'anon' }, 'sync_pull', { p_since: 0 });
    expect(anonPull.status).toBeGreaterThanOrEqual(400);
  });
});
