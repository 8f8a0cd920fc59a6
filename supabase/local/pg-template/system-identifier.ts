// Gives a copied cluster a system identifier of its own, as initdb gives every cluster one.
// PostgreSQL has no tool for it in the embedded binaries (no pg_resetwal), so the two places that hold
// it are rewritten while the server is down: global/pg_control (with its CRC-32C) and the long header
// of each WAL segment's first page (xlp_sysid, checked against pg_control when WAL is read; page
// headers carry no checksum). Why it matters: private.feed_epoch() hashes it, so without this every
// throwaway stack copied from one template would share one feed epoch where fresh ones differ.
// Invariant: the file layout is found, not assumed per version: the CRC's offset is the one where the
// CRC-32C of the bytes before it equals the stored value; a file where that is not exactly one offset
// is left alone and the copy refused.
import { randomBytes } from 'node:crypto';
import { open, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const CRC32C_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

export function crc32c(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC32C_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The offset of pg_control's CRC: the one 4-aligned offset where the CRC of what precedes it is stored. */
function crcOffset(control: Buffer): number {
  const found: number[] = [];
  for (let n = 16; n + 4 <= Math.min(control.length, 1024); n += 4)
    if (crc32c(control.subarray(0, n)) === control.readUInt32LE(n)) found.push(n);
  if (found.length !== 1) throw new Error(`pg_control: cannot locate its CRC (${found.length} candidates)`);
  return found[0]!;
}

export async function readSystemIdentifier(pgDir: string): Promise<bigint> {
  return (await readFile(join(pgDir, 'global', 'pg_control'))).readBigUInt64LE(0);
}

/** initdb's recipe: seconds in the high half, then sub-second bits; here random low bits instead of the pid. */
function newIdentifier(): bigint {
  const now = BigInt(Math.floor(Date.now() / 1000));
  return (now << 32n) | BigInt(randomBytes(4).readUInt32LE(0));
}

// XLogLongPageHeaderData: XLogPageHeaderData (24 bytes, MAXALIGNed) then uint64 xlp_sysid.
const XLP_LONG_HEADER = 0x0002;
const SYSID_IN_LONG_HEADER = 24;

/** Rewrites the system identifier of the cluster in pgDir (server stopped). Returns the new one. */
export async function renewSystemIdentifier(pgDir: string): Promise<bigint> {
  const controlFile = join(pgDir, 'global', 'pg_control');
  const control = await readFile(controlFile);
  const at = crcOffset(control);
  const old = control.readBigUInt64LE(0);
  const next = newIdentifier();
  const walDir = join(pgDir, 'pg_wal');
  for (const name of await readdir(walDir)) {
    if (!/^[0-9A-F]{24}$/.test(name)) continue;
    const f = await open(join(walDir, name), 'r+');
    try {
      const head = Buffer.alloc(SYSID_IN_LONG_HEADER + 8);
      const { bytesRead } = await f.read(head, 0, head.length, 0);
      if (bytesRead < head.length || (head.readUInt16LE(2) & XLP_LONG_HEADER) === 0) continue;
      if (head.readBigUInt64LE(SYSID_IN_LONG_HEADER) !== old) continue;
      head.writeBigUInt64LE(next, SYSID_IN_LONG_HEADER);
      await f.write(head, SYSID_IN_LONG_HEADER, 8, SYSID_IN_LONG_HEADER);
    } finally {
      await f.close();
    }
  }
  control.writeBigUInt64LE(next, 0);
  control.writeUInt32LE(crc32c(control.subarray(0, at)), at);
  await writeFile(controlFile, control);
  return next;
}
