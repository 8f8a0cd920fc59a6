// The attachments bucket's policies on storage.objects, in SQL as each role (issue 38): what a member,
// another account's member, a super admin and anon may insert, read and delete, and the platform's
// guards (direct DELETEs refused, path helpers as hosted defines them). The HTTP attacks are in
// tests/server/storage-attacks.test.ts.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createConversation, createUser, db, one, type TestUser } from './helpers.ts';

let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let aliceConv: string;
let bobConv: string;

beforeAll(async () => {
  [alice, bob, admin] = await Promise.all([createUser('st-a'), createUser('st-b'), createUser('st-admin', { superAdmin: true })]);
  [aliceConv, bobConv] = await Promise.all([createConversation(alice.accountId), createConversation(bob.accountId)]);
});
afterAll(closeDb);

/** Runs `fn` as `who` (role + JWT claims, as PostgREST and the Storage API do), always rolled back. */
async function as<T>(who: TestUser | 'anon', fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await db().connect();
  try {
    await c.query('begin');
    const claims = who === 'anon' ? { role: 'anon' } : { role: 'authenticated', sub: who.id };
    await c.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [claims.role, JSON.stringify(claims)]);
    return await fn(c);
  } finally {
    await c.query('rollback');
    c.release();
  }
}

const path = (accountId: string, conv: string) => `${accountId}/${conv}/${randomUUID()}/a.png`;
const insert = (c: pg.PoolClient, name: string) =>
  c.query(`insert into storage.objects (bucket_id, name) values ('attachments', $1)`, [name]);
const code = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code);

describe('storage.objects policies (attachments)', () => {
  it('a member inserts only {own account}/{own conversation}/{attachment}/{file}', async () => {
    expect(await as(alice, (c) => code(insert(c, path(alice.accountId, aliceConv))))).toBe('ok');
    expect(await as(alice, (c) => code(insert(c, path(bob.accountId, bobConv))))).toBe('42501');
    expect(await as(alice, (c) => code(insert(c, path(alice.accountId, bobConv))))).toBe('42501');
    expect(await as(alice, (c) => code(insert(c, `${alice.accountId}/${aliceConv}/a.png`)))).toBe('42501');
    expect(await as('anon', (c) => code(insert(c, path(alice.accountId, aliceConv))))).toBe('42501');
  });

  it("reads: own account's objects; a super admin reads every account's; anon none", async () => {
    const name = path(alice.accountId, aliceConv);
    await db().query(`insert into storage.objects (bucket_id, name) values ('attachments', $1)`, [name]);
    const count = (who: TestUser | 'anon') =>
      as(who, async (c) => (await c.query('select 1 from storage.objects where name = $1', [name])).rowCount);
    expect(await count(alice)).toBe(1);
    expect(await count(bob)).toBe(0);
    expect(await count(admin)).toBe(1);
    expect(await count('anon')).toBe(0);
  });

  it('rows are never deleted by SQL, only through the Storage API', async () => {
    const name = path(alice.accountId, aliceConv);
    await db().query(`insert into storage.objects (bucket_id, name) values ('attachments', $1)`, [name]);
    expect(await as(alice, (c) => code(c.query('delete from storage.objects where name = $1', [name])))).toBe('42501');
    const removed = await as(alice, async (c) => {
      await c.query(`select set_config('storage.allow_delete_query', 'true', true)`);
      return (await c.query('delete from storage.objects where name = $1', [name])).rowCount;
    });
    expect(removed).toBe(1);
    const bobRemoved = await as(bob, async (c) => {
      await c.query(`select set_config('storage.allow_delete_query', 'true', true)`);
      return (await c.query('delete from storage.objects where name = $1', [name])).rowCount;
    });
    expect(bobRemoved).toBe(0);
  });

  it('the bucket is private, 25 MB, without HTML or SVG; the path helpers answer as hosted', async () => {
    const b = await one<{ public: boolean; file_size_limit: string; allowed_mime_types: string[] }>(
      `select public, file_size_limit, allowed_mime_types from storage.buckets where id = 'attachments'`,
    );
    expect(b.public).toBe(false);
    expect(Number(b.file_size_limit)).toBe(25 * 1024 * 1024);
    expect(b.allowed_mime_types).toContain('application/pdf');
    expect(b.allowed_mime_types).not.toContain('text/html');
    expect(b.allowed_mime_types).not.toContain('image/svg+xml');
    const h = await one<{ f: string[]; n: string; e: string }>(
      `select storage.foldername('a/b/c/d.tar.gz') f, storage.filename('a/b/c/d.tar.gz') n, storage.extension('a/b/c/d.tar.gz') e`,
    );
    expect(h).toEqual({ f: ['a', 'b', 'c'], n: 'd.tar.gz', e: 'gz' });
  });
});
