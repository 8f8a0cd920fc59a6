// Resumable uploads at /storage/v1/upload/resumable: the TUS 1.0.0 protocol is @tus/server's, bytes
// go to a @tus/file-store under DATA_DIR/storage/tus. What hosted adds on top is here (supabase/storage
// src/http/routes/tus/index.ts and lifecycle.ts):
// - Upload-Metadata names bucketName, objectName, contentType, cacheControl; x-upsert: true replaces;
// - on create: the caller's token is verified, the bucket's size limit and MIME allow-list apply, and
//   the object insert is tried as the caller under RLS (rolled back) — a refusal creates nothing;
// - every later request (HEAD, PATCH) is authorised again the same way, so a leaked upload URL is
//   useless without a token allowed to write that object;
// - on the last byte: the content is sniffed, then the row is inserted as the caller and the file
//   moved into the object store in one transaction (store.ts commit).
// Clients send 6 MB chunks (hosted requires exactly 6 MB but the last); the file store accepts any.
import { randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { MemoryLocker, Server, type Upload } from '@tus/server';
import { callerFrom, type Caller } from './caller.ts';
import { checkAllowed, checkContent, baseMime, SNIFF_BYTES, type ObjectMeta } from './content.ts';
import type { StorageDeps } from './deps.ts';
import { errors, StorageError } from './errors.ts';
import { GLOBAL_FILE_SIZE_LIMIT } from './store.ts';
import { cacheControlOf } from './upload.ts';

export const TUS_PATH = '/storage/v1/upload/resumable';
export const TUS_CHUNK_SIZE = 6 * 1024 * 1024;

/** Thrown to @tus/server, which answers with this status and body. */
function tusError(err: unknown): never {
  if (err instanceof StorageError) throw { status_code: err.status, body: JSON.stringify(err.body()) };
  throw err;
}

function target(upload: Upload): { bucket: string; name: string } {
  const bucket = upload.metadata?.bucketName ?? '';
  const name = upload.metadata?.objectName ?? '';
  if (!bucket) throw errors.invalidRequest('Upload-Metadata must name bucketName');
  if (!name || name.length > 1024) throw errors.invalidKey(name);
  return { bucket, name };
}

export function createTusServer(deps: StorageDeps): Server {
  const directory = join(deps.dataDir, 'storage', 'tus');
  const datastore = new FileStore({ directory });
  const { store } = deps;
  const caller = (req: Request): Promise<Caller> => callerFrom(req.headers.get('authorization') ?? undefined, deps.keys);
  const upsert = (req: Request) => req.headers.get('x-upsert') === 'true';

  return new Server({
    path: TUS_PATH,
    datastore,
    locker: new MemoryLocker(),
    maxSize: GLOBAL_FILE_SIZE_LIMIT,
    // The id is a file name in the store: never derived from what the client sent.
    namingFunction: () => randomUUID(),
    allowedHeaders: ['Authorization', 'X-Upsert', 'ApiKey', 'X-Client-Info'],
    disableTerminationForFinishedUploads: true,
    onIncomingRequest: async (req, id) => {
      if (req.method === 'POST' || req.method === 'OPTIONS') return;
      try {
        const who = await caller(req);
        const upload = await datastore.getUpload(id).catch(() => undefined);
        if (!upload) return; // @tus/server answers 404 itself
        const { bucket, name } = target(upload);
        await store.canWrite(who, bucket, name, upsert(req));
      } catch (err) {
        tusError(err);
      }
    },
    onUploadCreate: async (req, upload) => {
      try {
        const who = await caller(req);
        const { bucket: bucketId, name } = target(upload);
        const bucket = await store.bucket(bucketId);
        const limit = store.sizeLimit(bucket);
        if (upload.size !== undefined && upload.size > limit) {
          throw errors.tooLarge(`the maximum allowed size (${limit} bytes)`);
        }
        checkAllowed(baseMime(upload.metadata?.contentType), bucket.allowed_mime_types);
        await store.canWrite(who, bucketId, name, upsert(req));
        return {};
      } catch (err) {
        return tusError(err);
      }
    },
    onUploadFinish: async (req, upload) => {
      const file = join(directory, upload.id);
      try {
        const who = await caller(req);
        const { bucket: bucketId, name } = target(upload);
        const bucket = await store.bucket(bucketId);
        const mime = baseMime(upload.metadata?.contentType);
        checkAllowed(mime, bucket.allowed_mime_types);
        const head = new Uint8Array(SNIFF_BYTES);
        const fh = await open(file, 'r');
        const { bytesRead } = await fh.read(head, 0, SNIFF_BYTES, 0).finally(() => fh.close());
        checkContent(mime, head.subarray(0, bytesRead));
        const size = upload.offset;
        const meta: ObjectMeta = {
          size,
          mimetype: mime,
          cacheControl: cacheControlOf(upload.metadata?.cacheControl),
          eTag: `"${upload.id}"`,
          lastModified: new Date().toUTCString(),
          contentLength: size,
          httpStatusCode: 200,
        };
        await store.commit(who, bucketId, name, upsert(req), file, meta);
        return {};
      } catch (err) {
        // A refused upload keeps nothing: neither the bytes nor the upload's record.
        await rm(file, { force: true });
        await rm(`${file}.json`, { force: true });
        return tusError(err);
      } finally {
        await rm(`${file}.json`, { force: true });
      }
    },
  });
}
