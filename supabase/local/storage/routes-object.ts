// /storage/v1/object/* — the object routes storage-js uses, with hosted's contracts
// (supabase/storage src/http/routes/object/: createObject.ts and updateObject.ts answer
// { Id, Key } with Key "{bucket}/{path}"; getObject.ts; deleteObjects.ts DELETE /object/{bucket}
// { prefixes } answers the deleted rows; deleteObject.ts; getSignedURL.ts; getSignedObject.ts).
// POST creates (409 when it exists, unless x-upsert: true); PUT replaces (upsert).
import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { Hono, type Context } from 'hono';
import { asCallerOf, type StorageDeps } from './deps.ts';
import { baseMime, checkAllowed, checkContent, downloadHeaders, type ObjectMeta } from './content.ts';
import { errors } from './errors.ts';
import { signObjectUrl, verifySignedUrl } from './signed-url.ts';
import type { StoredObject } from './store.ts';
import { receiveFile } from './upload.ts';

/** "{bucket}/{path…}" after `prefix`, percent-decoded per segment. */
function target(c: Context, prefix: string): { bucket: string; name: string } {
  const rest = c.req.path.slice(c.req.path.indexOf(prefix) + prefix.length);
  const parts = rest.split('/').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      throw errors.invalidKey(p);
    }
  });
  const bucket = parts.shift() ?? '';
  const name = parts.join('/');
  if (!bucket || !name || name.length > 1024) throw errors.invalidKey(name);
  return { bucket, name };
}

function serve(c: Context, deps: StorageDeps, obj: StoredObject, name: string): Response {
  const headers = downloadHeaders(obj.metadata, name);
  if (c.req.query('download') !== undefined) {
    const file = c.req.query('download') || name.split('/').pop()!;
    headers['content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(file)}`;
  }
  if (c.req.method === 'HEAD') return new Response(null, { status: 200, headers });
  const body = Readable.toWeb(createReadStream(deps.store.blobPath(obj.version))) as ReadableStream;
  return new Response(body, { status: 200, headers });
}

export function objectRoutes(deps: StorageDeps): Hono {
  const app = new Hono();
  const { store } = deps;

  const upload = (upsertByDefault: boolean) => async (c: Context) => {
    const caller = await asCallerOf(c, deps);
    const { bucket: bucketId, name } = target(c, '/object/');
    const upsert = upsertByDefault || c.req.header('x-upsert') === 'true';
    const bucket = await store.bucket(bucketId);
    if (baseMime(c.req.header('content-type')) !== 'multipart/form-data') {
      checkAllowed(baseMime(c.req.header('content-type')), bucket.allowed_mime_types);
    }
    // Hosted order: the policies are asked before a byte of the body is read.
    await store.canWrite(caller, bucketId, name, upsert);
    const limit = store.sizeLimit(bucket);
    const file = await receiveFile(c.req.raw, store.tmpPath(), limit);
    const meta: ObjectMeta = {
      size: file.size,
      mimetype: file.mime,
      cacheControl: file.cacheControl,
      eTag: `"${file.path.split('/').pop()}"`,
      lastModified: new Date().toUTCString(),
      contentLength: file.size,
      httpStatusCode: 200,
    };
    try {
      checkAllowed(file.mime, bucket.allowed_mime_types);
      checkContent(file.mime, file.head);
    } catch (err) {
      await rm(file.path, { force: true });
      throw err;
    }
    const { id } = await store.commit(caller, bucketId, name, upsert, file.path, meta);
    return c.json({ Id: id, Key: `${bucketId}/${name}` }, 200);
  };

  app.post('/object/sign/*', async (c) => {
    const caller = await asCallerOf(c, deps);
    const { bucket, name } = target(c, '/object/sign/');
    const body = (await c.req.json().catch(() => null)) as { expiresIn?: unknown } | null;
    const expiresIn = body?.expiresIn;
    if (typeof expiresIn !== 'number' || !Number.isInteger(expiresIn) || expiresIn < 1) {
      throw errors.invalidRequest('body/expiresIn must be an integer >= 1');
    }
    await store.find(caller, bucket, name);
    return c.json({ signedURL: await signObjectUrl(deps.jwtSecret, bucket, name, expiresIn) });
  });
  app.get('/object/sign/*', async (c) => {
    const { bucket, name } = target(c, '/object/sign/');
    await verifySignedUrl(deps.jwtSecret, c.req.query('token'), bucket, name);
    return serve(c, deps, await store.findSigned(bucket, name), name);
  });

  const download = (prefix: string) => async (c: Context) => {
    const caller = await asCallerOf(c, deps);
    const { bucket, name } = target(c, prefix);
    return serve(c, deps, await store.find(caller, bucket, name), name);
  };
  app.get('/object/authenticated/*', download('/object/authenticated/'));
  app.get('/object/public/*', () => {
    // No public bucket exists in this project; hosted answers a private bucket's object as not found.
    throw errors.noSuchKey();
  });

  app.delete('/object/:bucket', async (c) => {
    const caller = await asCallerOf(c, deps);
    const body = (await c.req.json().catch(() => null)) as { prefixes?: unknown } | null;
    const prefixes = body?.prefixes;
    if (!Array.isArray(prefixes) || prefixes.length < 1 || prefixes.length > 1000 || !prefixes.every((p) => typeof p === 'string')) {
      throw errors.invalidRequest('body/prefixes must be an array of 1 to 1000 strings');
    }
    return c.json(await store.remove(caller, c.req.param('bucket'), prefixes));
  });
  app.delete('/object/*', async (c) => {
    const caller = await asCallerOf(c, deps);
    const { bucket, name } = target(c, '/object/');
    const removed = await store.remove(caller, bucket, [name]);
    if (removed.length === 0) throw errors.noSuchKey();
    return c.json({ message: 'Successfully deleted' });
  });

  app.post('/object/*', upload(false));
  app.put('/object/*', upload(true));
  app.get('/object/*', download('/object/'));
  return app;
}
