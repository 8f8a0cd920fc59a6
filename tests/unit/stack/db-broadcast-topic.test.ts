// The local realtime's Broadcast from the database (supabase/local/realtime/db-broadcast.ts) reads a
// noticed realtime.messages row only when a channel has joined the row's topic, which the NOTIFY names
// (sql/realtime-messages.sql): a send to an account with no device online costs no read (row 10a,
// bench/RESULTS.md 2026-11-29). A notice without a topic (a long topic left out) is read as before.
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DbBroadcaster, parseBroadcastNotice } from '../../../supabase/local/realtime/db-broadcast.ts';
import type { ChannelRegistry } from '../../../supabase/local/realtime/channel-registry.ts';
import type { Channel } from '../../../supabase/local/realtime/channel.ts';

function setup(joined: Record<string, { open: boolean }[]>) {
  const reads: unknown[][] = [];
  const pool = {
    query: (_sql: string, values: unknown[]) => {
      reads.push(values);
      return Promise.resolve({ rows: [] });
    },
  } as unknown as pg.Pool;
  const registry = { onTopic: (t: string) => new Set((joined[t] ?? []) as unknown as Channel[]) } as unknown as ChannelRegistry;
  return { reads, b: new DbBroadcaster(registry, pool, () => undefined) };
}

const key = { id: '00000000-0000-4000-8000-000000000001', insertedAt: '2026-11-29T04:00:00' };

describe('Broadcast from the database: which rows are read', () => {
  it('the NOTIFY names the topic, and a row on a topic no channel joined is not read', () => {
    const notice = parseBroadcastNotice(JSON.stringify({ broadcast: { id: key.id, inserted_at: key.insertedAt, topic: 'account:a' } }));
    expect(notice).toEqual({ ...key, topic: 'account:a' });
    const { reads, b } = setup({ 'realtime:account:b': [{ open: true }], 'realtime:account:a': [{ open: false }] });
    b.handle(notice!);
    expect(reads).toEqual([]);
  });

  it('a row on a joined topic is read', () => {
    const { reads, b } = setup({ 'realtime:account:a': [{ open: true }] });
    b.handle({ ...key, topic: 'account:a' });
    expect(reads).toEqual([[key.id, key.insertedAt]]);
  });

  it('a notice without a topic is read whoever joined', () => {
    const notice = parseBroadcastNotice(JSON.stringify({ broadcast: { id: key.id, inserted_at: key.insertedAt, topic: null } }));
    expect(notice).toEqual(key);
    const { reads, b } = setup({});
    b.handle(notice!);
    expect(reads).toEqual([[key.id, key.insertedAt]]);
  });
});
