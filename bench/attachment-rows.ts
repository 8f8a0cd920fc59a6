// Row 14 (issue 38): attachments on the wire, headless against a stack of its own.
//   14b  a 20 MB file through TUS as the app sends it (tus-js-client, the uploader's 6 MB chunks,
//        headers and metadata) against one raw POST of the same bytes to the same server's
//        /storage/v1/object: throughput, median of interleaved pairs (goal ≥ 0.9×).
//   14c  the same file sent by the sync engine (fake-indexeddb, the real uploader) over a link cut
//        3 times at seeded random points: bytes that reached the server against the bound the issue
//        sets, 20 MB + 3 × 6 MB.
// (14a, a 12 MP photo picked → its own bubble painted, is measured in the browser: photo-bubble-row.ts.)
import { randomBytes, randomUUID } from 'node:crypto';
import * as tus from 'tus-js-client';
import { attachmentJob } from '../sync/attachments/queries.ts';
import { TUS_CHUNK_BYTES } from '../sync/attachments/limits.ts';
import { rng, TestDevice, waitFor } from '../sync/testing/index.ts';
import { cuttingLink } from '../tests/helpers/cutting-link.ts';
import { startTestStack, type TestStack } from '../tests/helpers/stack.ts';
import { createAccount, createConversation, pool } from '../tests/sync/helpers/server-db.ts';
import { median } from './stats.ts';
import type { BenchRow } from './table.ts';

const SIZE = 20 * 1024 * 1024;
const CUTS = 3;

function zip(size: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(size);
  b.set(randomBytes(size));
  b.set([0x50, 0x4b, 0x03, 0x04], 0);
  return b;
}


async function tusUpload(stack: TestStack, token: string, path: string, bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const upload = new tus.Upload(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      endpoint: `${stack.url}/storage/v1/upload/resumable`,
      chunkSize: TUS_CHUNK_BYTES,
      retryDelays: [],
      headers: { authorization: `Bearer ${token}`, apikey: stack.keys.anonKey, 'x-upsert': 'true' },
      metadata: { bucketName: 'attachments', objectName: path, contentType: 'application/zip', cacheControl: '3600' },
      storeFingerprintForResuming: false,
      onSuccess: () => resolve(),
      onError: reject,
    });
    upload.start();
  });
  return performance.now() - t0;
}

async function rawUpload(stack: TestStack, token: string, path: string, bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${stack.url}/storage/v1/object/attachments/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, apikey: stack.keys.anonKey, 'content-type': 'application/zip', 'x-upsert': 'true' },
    body: bytes,
  });
  if (!res.ok) throw new Error(`row 14b: raw upload answered ${res.status}: ${await res.text()}`);
  return performance.now() - t0;
}

export async function attachmentRows(opts: { quick: boolean; log: (s: string) => void }): Promise<BenchRow[]> {
  const pairs = opts.quick ? 3 : 7;
  opts.log(`row 14: attachments — ${pairs} TUS/raw pairs of 20 MB, then one engine send cut ${CUTS} times`);
  const stack = await startTestStack({ logLevel: 'quiet' });
  const db = pool(stack.databaseUrl);
  try {
    const account = await createAccount(db, stack.keys.jwtSecret, 1, 'bench-att');
    const conv = await createConversation(db, account.id, account.humans[0]!);
    const token = account.users[0]!.token;
    const bytes = zip(SIZE);
    const folder = `${account.id}/${conv}`;
    const ratios: number[] = [];
    const tusMs: number[] = [];
    const rawMs: number[] = [];
    for (let i = 0; i < pairs; i++) {
      // Alternate which goes first, so neither always meets a warmer server.
      const viaTus = () => tusUpload(stack, token, `${folder}/${randomUUID()}/t.zip`, bytes);
      const viaRaw = () => rawUpload(stack, token, `${folder}/${randomUUID()}/r.zip`, bytes);
      let t: number;
      let r: number;
      if (i % 2 === 0) {
        t = await viaTus();
        r = await viaRaw();
      } else {
        r = await viaRaw();
        t = await viaTus();
      }
      tusMs.push(t);
      rawMs.push(r);
      ratios.push(r / t); // TUS throughput ÷ raw throughput
    }
    opts.log(`  TUS ${tusMs.map(Math.round).join(', ')} ms; raw ${rawMs.map(Math.round).join(', ')} ms`);

    // 14c: the engine, its uploader and a link cut at three seeded points inside the file.
    const rand = rng(14);
    const points = Array.from({ length: CUTS }, () => rand.int(SIZE)).sort((a, b) => a - b);
    // Points below the file's size always fall inside the upload: the bytes on the wire are at least the file.
    const link = await cuttingLink(new URL(stack.url), points);
    const device = new TestDevice({ url: stack.url, anonKey: stack.keys.anonKey }, account.users[0]!, { accountId: account.id, rand: rng(15) });
    try {
      const engine = await device.start({
        realtime: false,
        engine: { uploads: { endpoint: `${link.url}/storage/v1/upload/resumable`, headers: async () => ({ authorization: `Bearer ${token}` }) }, storageEstimate: null },
      });
      const h = await engine.commands.sendWithAttachments({ conversationId: conv, text: '', files: [{ blob: new Blob([bytes], { type: 'application/zip' }), name: 'podklady.zip', type: 'application/zip' }] });
      await waitFor(async () => (await attachmentJob(engine.db, h.key))?.state === 'sent', 'row 14c: the cut upload delivered', 180_000);
    } finally {
      await device.stop();
      await link.close();
    }
    const sent = link.forwarded();
    opts.log(`  14c: cuts after ${points.map((p) => (p / 2 ** 20).toFixed(1)).join(', ')} MiB on the wire (${link.cuts()} made), ${(sent / 2 ** 20).toFixed(1)} MiB reached the server`);
    const bound = SIZE + CUTS * TUS_CHUNK_BYTES;
    const mib = (n: number) => n / 2 ** 20;
    const mbps = (ms: number) => SIZE / 1e6 / (ms / 1000);
    return [
      {
        row: '14b',
        figure: 'attachment: 20 MB upload through TUS (6 MB chunks) against one raw POST of the same bytes, throughput (ratio: median of pairs)',
        poradna: mbps(median(tusMs)),
        baseline: mbps(median(rawMs)),
        unit: 'MB/s',
        better: 'higher',
        goal: 'throughput ≥ 0.9× raw',
        met: median(ratios) >= 0.9,
        ratio: median(ratios),
      },
      {
        row: '14c',
        figure: `attachment: 20 MB sent by the engine over a link cut ${CUTS} times, bytes at the server (baseline: the bound 20 MB + 3 × 6 MB)`,
        poradna: mib(sent),
        baseline: mib(bound),
        unit: 'MiB',
        better: 'lower',
        goal: '≤ 20 MB + 3 × 6 MB',
        met: sent <= bound,
      },
    ];
  } finally {
    await db.end();
    await stack.destroy();
  }
}
