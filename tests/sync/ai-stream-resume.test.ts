// R13.1 on a device: an AI reply that grows in one server row (written by the worker's own RPCs,
// ai_reply_progress and finish_ai_reply_job, as the streaming worker calls them) converges on the
// device to the exact final text, stored once — also when the device's socket is cut, the page is
// reloaded or the tab is killed at random points mid-answer (issue 39's resume test). The loop's size
// is AI_RESUME_RUNS (default 20; the 200 take several minutes on a loaded machine).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ProvidedStack } from '../helpers/global-stack.ts';
import { rng, TestDevice, waitFor } from '../../sync/testing/index.ts';
import type { LocalMessage } from '../../sync/model/local-types.ts';
import { createAccount, createConversation, pool } from './helpers/server-db.ts';

let stack: ProvidedStack;
let db: pg.Pool;
const devices: TestDevice[] = [];
const RUNS = Number(process.env.AI_RESUME_RUNS ?? 20);
/** The loop's budget grows with its size (each answer streams ~1 s and may reload the engine). */
const BUDGET_MS = 30_000 + RUNS * 8_000;
const WORKER = 'resume-test-worker';

beforeAll(() => {
  stack = inject('stack');
  db = pool(stack.databaseUrl);
});
afterEach(async () => {
  await Promise.all(devices.splice(0).map((d) => d.stop()));
});
afterAll(async () => {
  await db.end();
});

/** A running job for a user message in the conversation, claimed by WORKER (as claim_ai_reply_job leaves it). */
async function runningJob(conversationId: string, accountId: string): Promise<string> {
  const m = await db.query<{ id: string }>(
    `insert into public.messages (conversation_id, text, type, direction, source) values ($1, 'Otázka', 'text', 'user', 'app') returning id`,
    [conversationId],
  );
  const j = await db.query<{ id: string }>(
    `insert into public.ai_reply_jobs (message_id, conversation_id, account_id, status, attempts, locked_by, run_after)
     values ($1, $2, $3, 'running', 1, $4, now() + interval '2 minutes') returning id`,
    [m.rows[0]!.id, conversationId, accountId, WORKER],
  );
  return j.rows[0]!.id;
}

const progress = (job: string, text: string) =>
  db.query<{ r: string }>('select public.ai_reply_progress($1, $2, $3) r', [job, WORKER, text]);

/** Characters the device has wrong: what is missing after the common prefix, and what is extra. */
function wrongChars(device: string, server: string): { missing: number; extra: number } {
  let p = 0;
  while (p < device.length && p < server.length && device[p] === server[p]) p++;
  return { missing: server.length - p, extra: device.length - p };
}

describe('R13 a growing AI reply on a device', () => {
  it(`R13.1 ${RUNS} answers interrupted at random points (socket cut, reload, tab killed) end with the exact text, once`, async () => {
    const a = await createAccount(db, stack.jwtSecret, 1, 'airesume');
    const conversationId = await createConversation(db, a.id, a.humans[0]!);
    const r = rng(39);
    const rand = () => r.next();
    const phone = new TestDevice({ url: stack.url, anonKey: stack.anonKey }, a.users[0]!, { accountId: a.id, rand: rng(40) });
    devices.push(phone);
    let engine = await phone.start();
    let missing = 0;
    let extra = 0;
    let duplicated = 0;
    const faults = { cut: 0, reload: 0, killed: 0 };
    for (let run = 0; run < RUNS; run++) {
      const job = await runningJob(conversationId, a.id);
      const words = Array.from({ length: 12 + Math.floor(rand() * 20) }, (_, i) => `slovo${run}-${i}${rand() < 0.2 ? ' áčďž' : ''}`);
      const faultAt = Math.floor(rand() * words.length);
      let text = '';
      for (let i = 0; i < words.length; i++) {
        text += (i ? ' ' : '') + words[i];
        expect((await progress(job, text)).rows[0]!.r).toBe('go');
        if (i === faultAt) {
          const kind = rand();
          if (kind < 0.34) {
            phone.net.cutSockets();
            faults.cut++;
          } else if (kind < 0.67) {
            engine = await phone.restart(false);
            faults.reload++;
          } else {
            engine = await phone.restart(true);
            faults.killed++;
          }
        }
      }
      await db.query('select public.finish_ai_reply_job($1, $2, $3, $4)', [job, WORKER, text, 'done']);
      const key = `c:${job}`;
      const local = await waitFor(
        async () => {
          const m = (await engine.db.table('messages').get(key)) as LocalMessage | undefined;
          return m && m.payload?.streaming !== true && m.text.length >= text.length ? m : null;
        },
        `run ${run}: the final reply on the device`,
        20_000,
      ).catch(async () => (await engine.db.table('messages').get(key)) as LocalMessage | undefined);
      const w = wrongChars(local?.text ?? '', text);
      if (w.missing || w.extra) console.log(`[R13 resume] run ${run}: ${w.missing} missing, ${w.extra} extra`);
      missing += w.missing;
      extra += w.extra;
      const copies = (await engine.db.table('messages').where('conversationId').equals(conversationId).toArray()) as LocalMessage[];
      duplicated += copies.filter((m) => m.text === text).length - 1;
      expect(local?.payload).toMatchObject({ ai_job_id: job });
      expect(local?.payload?.streaming).toBeUndefined();
    }
    console.log(`[R13 resume] ${RUNS} answers, faults ${JSON.stringify(faults)}: ${missing} missing, ${extra} duplicated characters, ${duplicated} duplicated rows`);
    expect({ missing, extra, duplicated }).toEqual({ missing: 0, extra: 0, duplicated: 0 });
  }, BUDGET_MS);

  it('R13.2 a worker that lost its claim writes nothing', async () => {
    const a = await createAccount(db, stack.jwtSecret, 1, 'ailost');
    const conversationId = await createConversation(db, a.id, a.humans[0]!);
    const job = await runningJob(conversationId, a.id);
    const r = await db.query<{ r: string }>('select public.ai_reply_progress($1, $2, $3) r', [job, `other-${randomUUID()}`, 'cudzí text']);
    expect(r.rows[0]!.r).toBe('lost');
    const rows = await db.query('select 1 from public.messages where client_correlation_id = $1', [job]);
    expect(rows.rowCount).toBe(0);
  });
});
