// The R12 attachment tests' common setup (tests/sync/r12-*.test.ts): the shared stack, a database
// pool, and per test a fresh account and conversation, a device, and a TCP relay to the stack that
// counts the bytes reaching the server (and can cut the link); devices and relays go after each test.
import type pg from 'pg';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import type { SyncEngineOptions } from '../../../sync/engine-deps.ts';
import { rng, TestDevice } from '../../../sync/testing/index.ts';
import type { ProvidedStack } from '../../helpers/global-stack.ts';
import { cuttingLink } from '../../server/storage-helpers.ts';
import { createAccount, createConversation, pool, type TestAccount } from './server-db.ts';

export type Link = Awaited<ReturnType<typeof cuttingLink>>;

export interface AttachmentHarness {
  stack: () => ProvidedStack;
  db: () => pg.Pool;
  /** A fresh account, conversation, device (seeded `seed`) and relay cut after `cutAfter` bytes. */
  setup: (tag: string, opts?: { cutAfter?: number; seed?: number }) => Promise<{ a: TestAccount; conv: string; device: TestDevice; link: Link }>;
  /** Engine options uploading through the relay with the member's token; no storage estimate. */
  engineOptions: (link: Link, token: string, extra?: Partial<SyncEngineOptions>) => Partial<SyncEngineOptions>;
}

/** Registers the file's hooks; call once at the top of a test file. */
export function attachmentHarness(): AttachmentHarness {
  let stack: ProvidedStack;
  let db: pg.Pool;
  const devices: TestDevice[] = [];
  const links: { close(): Promise<void> }[] = [];
  beforeAll(() => {
    stack = inject('stack');
    db = pool(stack.databaseUrl);
  });
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.stop()));
    await Promise.all(links.splice(0).map((l) => l.close()));
  });
  afterAll(async () => {
    await db.end();
  });
  return {
    stack: () => stack,
    db: () => db,
    setup: async (tag, { cutAfter = Infinity, seed = 12 } = {}) => {
      const a = await createAccount(db, stack.jwtSecret, 1, tag);
      const conv = await createConversation(db, a.id, a.humans[0]!);
      const device = new TestDevice(stack, a.users[0]!, { accountId: a.id, rand: rng(seed) });
      devices.push(device);
      const link = await cuttingLink(new URL(stack.url), cutAfter);
      links.push(link);
      return { a, conv, device, link };
    },
    engineOptions: (link, token, extra = {}) => ({
      uploads: { endpoint: `${link.url}/storage/v1/upload/resumable`, headers: async () => ({ authorization: `Bearer ${token}` }) },
      storageEstimate: null,
      ...extra,
    }),
  };
}
