// storage.objects rows and the bytes they point at. Bytes live in DATA_DIR/storage/objects/<version>
// (a random UUID per write, recorded in objects.version as hosted does), so an object's name never
// becomes a file path: no traversal, and a replaced object's old bytes are removed after the commit.
// Every row read or write runs as the caller (caller.ts): the policies decide who sees what.
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { asCaller, type Caller } from './caller.ts';
import { errors } from './errors.ts';
import type { ObjectMeta } from './content.ts';

export interface Bucket {
  id: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
}

export interface StoredObject {
  id: string;
  version: string;
  metadata: ObjectMeta;
}

/** Hosted's default upload limit when a bucket sets none (50 MB, the free plan's). */
export const GLOBAL_FILE_SIZE_LIMIT = 50 * 1024 * 1024;

export class ObjectStore {
  readonly objectsDir: string;
  readonly tmpDir: string;

  constructor(
    private readonly pool: pg.Pool,
    dataDir: string,
  ) {
    this.objectsDir = join(dataDir, 'storage', 'objects');
    this.tmpDir = join(dataDir, 'storage', 'tmp');
  }

  async init(): Promise<void> {
    await mkdir(this.objectsDir, { recursive: true });
    await mkdir(this.tmpDir, { recursive: true });
  }

  blobPath(version: string): string {
    if (!/^[0-9a-f-]{36}$/.test(version)) throw new Error(`bad object version ${version}`);
    return join(this.objectsDir, version);
  }

  tmpPath(): string {
    return join(this.tmpDir, randomUUID());
  }

  /** Bucket settings are read by the service itself (hosted: findBucket as the super user). */
  async bucket(id: string): Promise<Bucket> {
    const { rows } = await this.pool.query<Bucket>(
      'select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1',
      [id],
    );
    if (!rows[0]) throw errors.noSuchBucket();
    return { ...rows[0], file_size_limit: rows[0].file_size_limit === null ? null : Number(rows[0].file_size_limit) };
  }

  sizeLimit(bucket: Bucket): number {
    return Math.min(bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT, GLOBAL_FILE_SIZE_LIMIT);
  }

  /**
   * Would the caller be allowed to write this object? The insert (or upsert) runs as the caller and
   * is rolled back, as hosted's Uploader.canUpload does with testPermission before any byte is read.
   */
  async canWrite(caller: Caller, bucketId: string, name: string, upsert: boolean): Promise<void> {
    const rollback = new Error('rollback');
    try {
      await asCaller(this.pool, caller, async (db) => {
        await this.writeRow(db, caller, bucketId, name, upsert, randomUUID(), null);
        throw rollback;
      });
    } catch (err) {
      if (err !== rollback) throw err;
    }
  }

  /**
   * Records the object as the caller and moves the bytes in place inside that transaction; the old
   * bytes of a replaced object are removed once it committed. A refusal leaves nothing behind.
   */
  async commit(
    caller: Caller,
    bucketId: string,
    name: string,
    upsert: boolean,
    file: string,
    meta: ObjectMeta,
  ): Promise<{ id: string }> {
    const version = randomUUID();
    let previous: string | null = null;
    try {
      const id = await asCaller(this.pool, caller, async (db) => {
        const old = await db.query<{ version: string | null }>(
          'select version from storage.objects where bucket_id = $1 and name = $2 for update',
          [bucketId, name],
        );
        previous = old.rows[0]?.version ?? null;
        const row = await this.writeRow(db, caller, bucketId, name, upsert, version, meta);
        await rename(file, this.blobPath(version));
        return row;
      });
      if (previous) await rm(this.blobPath(previous), { force: true });
      return { id };
    } catch (err) {
      await rm(file, { force: true });
      await rm(this.blobPath(version), { force: true });
      throw err;
    }
  }

  private async writeRow(
    db: pg.PoolClient,
    caller: Caller,
    bucketId: string,
    name: string,
    upsert: boolean,
    version: string,
    meta: ObjectMeta | null,
  ): Promise<string> {
    const conflict = upsert
      ? `on conflict (bucket_id, name) do update set version = excluded.version, metadata = excluded.metadata,
           owner = excluded.owner, owner_id = excluded.owner_id, updated_at = now(), last_accessed_at = now()`
      : '';
    const { rows } = await db.query<{ id: string }>(
      `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata)
       values ($1, $2, $3, $4, $5, $6) ${conflict} returning id`,
      [bucketId, name, caller.sub && /^[0-9a-f-]{36}$/i.test(caller.sub) ? caller.sub : null, caller.sub ?? null, version, meta],
    );
    return rows[0]!.id;
  }

  /** The object as the caller may see it (404 when RLS hides it, as on hosted). */
  async find(caller: Caller, bucketId: string, name: string): Promise<StoredObject> {
    const row = await asCaller(this.pool, caller, async (db) => {
      const { rows } = await db.query<StoredObject>(
        'select id, version, metadata from storage.objects where bucket_id = $1 and name = $2',
        [bucketId, name],
      );
      return rows[0];
    });
    if (!row) throw errors.noSuchKey();
    return row;
  }

  /** The object regardless of policies: only for a request carrying a valid signed-URL token. */
  async findSigned(bucketId: string, name: string): Promise<StoredObject> {
    const { rows } = await this.pool.query<StoredObject>(
      'select id, version, metadata from storage.objects where bucket_id = $1 and name = $2',
      [bucketId, name],
    );
    if (!rows[0]) throw errors.noSuchKey();
    return rows[0];
  }

  /** Deletes what the caller may delete among `names`; answers the deleted rows. */
  async remove(caller: Caller, bucketId: string, names: string[]): Promise<Record<string, unknown>[]> {
    const rows = await asCaller(this.pool, caller, async (db) => {
      // The Storage API is the one path allowed to delete rows (schema.sql protect_delete).
      await db.query(`select set_config('storage.allow_delete_query', 'true', true)`);
      const res = await db.query<Record<string, unknown> & { version: string | null }>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
         returning id, bucket_id, name, owner, owner_id, version, metadata, created_at, updated_at, last_accessed_at`,
        [bucketId, names],
      );
      return res.rows;
    });
    for (const r of rows) if (r.version) await rm(this.blobPath(r.version), { force: true });
    return rows;
  }
}
