// The database bench/send-instructions.sh counts a send on: a throwaway stack's data directory with
// two members, each with the first conversation given to a human specialist, as row 10a's insertRows
// makes them (so no AI reply job is queued). Usage: node --import tsx bench/send-instructions-fixture.ts DIR
// — leaves DIR/pg (stopped cleanly) and DIR/fixture.json ({ user, conv, acc, user1, conv1, acc1 }).
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import { startTestStack } from '../tests/helpers/stack.ts';
import { signToken } from '../tests/server/realtime-helpers.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: bench/send-instructions-fixture.ts DIR');
const stack = await startTestStack({}, { dataDir: dir });
const db = new pg.Client({ connectionString: stack.databaseUrl });
await db.connect();
const out: Record<string, string> = {};
for (const k of ['', '1']) {
  const id = randomUUID();
  await db.query(`insert into auth.users (id, email, email_confirmed_at) values ($1, $2, now())`, [id, `bench-${id.slice(0, 8)}@example.test`]);
  const { rows } = await db.query<{ account_id: string }>('select account_id from public.account_users where user_id = $1', [id]);
  const token = await signToken(stack.keys.jwtSecret, { sub: id });
  const r = await fetch(`${stack.url}/rest/v1/rpc/ensure_first_conversation`, {
    method: 'POST',
    headers: { apikey: stack.keys.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const conv = ((await r.json()) as { conversation_id: string }).conversation_id;
  await db.query(`update public.conversations set specialist_id = (select id from public.specialists where not is_ai limit 1) where id = $1`, [conv]);
  out[`user${k}`] = id;
  out[`conv${k}`] = conv;
  out[`acc${k}`] = rows[0]!.account_id;
}
writeFileSync(`${dir}/fixture.json`, JSON.stringify(out));
await db.end();
await stack.stop();
process.exit(0);
