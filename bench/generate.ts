// Writes the planned data set (dataset.ts) into a stack's PostgreSQL as superuser: a member created
// through the auth admin API (its account comes from the signup trigger), human specialists (no AI
// replies during the runs), conversations, then messages in multi-row inserts through unnest(). The
// real triggers run for every row, so change_seq, last_message_at and the change feed are what the
// sync engine sees in production.
import pg from 'pg';
import type { RunningStack } from '../supabase/local/stack.ts';
import { planDataset, messageText, specialistName, type DatasetPlan, type PlanOptions } from './dataset.ts';
import { mulberry32, uuidFrom } from './prng.ts';

export const BENCH_PASSWORD = 'poradna-bench-123';
const BATCH = 2000;
const DAY_MS = 86_400_000;

export interface Dataset {
  plan: DatasetPlan;
  email: string;
  userId: string;
  accountId: string;
  chat1kId: string;
  chat10kId: string;
  messages: number;
  generateMs: number;
}

export async function createMember(stack: Pick<RunningStack, 'url' | 'keys'>, email: string): Promise<string> {
  const r = await fetch(`${stack.url}/auth/v1/admin/users`, {
    method: 'POST',
    headers: { apikey: stack.keys.serviceRoleKey, authorization: `Bearer ${stack.keys.serviceRoleKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD, email_confirm: true }),
  });
  if (!r.ok) throw new Error(`create user ${r.status}: ${await r.text()}`);
  return ((await r.json()) as { id: string }).id;
}

export async function generateDataset(stack: Pick<RunningStack, 'url' | 'keys' | 'databaseUrl'>, seed = 9, opts: PlanOptions = {}): Promise<Dataset> {
  const t0 = performance.now();
  const plan = planDataset(seed, opts);
  const email = `bench-${seed}@poradna.test`;
  const userId = await createMember(stack, email);
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ account_id: string }>('select account_id from public.account_users where user_id = $1', [userId]);
    const accountId = rows[0]!.account_id;
    await db.query(
      `insert into public.specialists (id, name, role, seniority, is_ai) select id, name, 'Marketingový špecialista', 'senior', false from unnest($1::uuid[], $2::text[]) as s(id, name)`,
      [plan.specialists, plan.specialists.map((_, i) => specialistName(i))],
    );
    const rng = mulberry32(seed ^ 0x5eed);
    const start = Date.now() - 40 * DAY_MS;
    const starts = plan.conversations.map(() => start + Math.floor(rng() * 20 * DAY_MS));
    await db.query(
      `insert into public.conversations (id, account_id, specialist_id, status, created_at)
       select id, $1, sp, st, ca from unnest($2::uuid[], $3::uuid[], $4::text[], $5::timestamptz[]) as c(id, sp, st, ca)`,
      [accountId, plan.conversations.map((c) => c.id), plan.conversations.map((c) => plan.specialists[c.specialist]!), plan.conversations.map((c) => c.status), starts.map((s) => new Date(s).toISOString())],
    );
    let batch: { id: string[]; conv: string[]; text: string[]; dir: string[]; at: string[] } = { id: [], conv: [], text: [], dir: [], at: [] };
    const flush = async () => {
      if (batch.id.length === 0) return;
      await db.query(
        `insert into public.messages (id, conversation_id, text, direction, source, created_at)
         select id, conv, txt, dir, 'bench', at from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::timestamptz[]) as m(id, conv, txt, dir, at)`,
        [batch.id, batch.conv, batch.text, batch.dir, batch.at],
      );
      batch = { id: [], conv: [], text: [], dir: [], at: [] };
    };
    let total = 0;
    for (const [ci, c] of plan.conversations.entries()) {
      // Spread each conversation over its own window; a big chat gets a message every 20 s.
      const step = Math.max(1000, Math.floor((15 * DAY_MS) / Math.max(1, c.messages)));
      for (let m = 0; m < c.messages; m++) {
        batch.id.push(uuidFrom(rng));
        batch.conv.push(c.id);
        batch.text.push(messageText(rng));
        batch.dir.push(rng() < 0.5 ? 'user' : 'specialist');
        batch.at.push(new Date(starts[ci]! + (m + 1) * step).toISOString());
        total++;
        if (batch.id.length >= BATCH) await flush();
      }
    }
    await flush();
    await db.query('analyze public.messages; analyze public.conversations');
    return {
      plan,
      email,
      userId,
      accountId,
      chat1kId: plan.conversations[plan.chat1k]!.id,
      chat10kId: plan.conversations[plan.chat10k]!.id,
      messages: total,
      generateMs: performance.now() - t0,
    };
  } finally {
    await db.end();
  }
}
