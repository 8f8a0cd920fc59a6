// The Storage API of the local stack through unmodified supabase-js `storage` (issue 38): upload,
// download, HEAD, signed URLs, upsert and delete, with hosted's response shapes.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { member, attachmentPath, PNG, PDF, storageUrl, type Member } from './storage-helpers.ts';

const stack = inject('stack');
let alice: Member;
let db: pg.Client;

beforeAll(async () => {
  alice = await member(stack, 'st-api');
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db.end();
});

describe('storage object API (supabase-js)', () => {
  it('uploads a photo, answers { id, path, fullPath } and downloads the same bytes inline', async () => {
    const path = attachmentPath(alice, 'fotka.png');
    const up = await alice.client.storage.from('attachments').upload(path, PNG, { contentType: 'image/png' });
    expect(up.error).toBeNull();
    expect(up.data).toMatchObject({ path, fullPath: `attachments/${path}` });
    expect(up.data!.id).toMatch(/^[0-9a-f-]{36}$/);

    const down = await alice.client.storage.from('attachments').download(path);
    expect(down.error).toBeNull();
    expect(Buffer.from(await down.data!.arrayBuffer())).toEqual(PNG);

    const { rows } = await db.query('select owner, metadata from storage.objects where bucket_id = $1 and name = $2', ['attachments', path]);
    expect(rows[0].owner).toBe(alice.userId);
    expect(rows[0].metadata).toMatchObject({ size: PNG.length, mimetype: 'image/png' });

    const res = await fetch(storageUrl(stack, `/object/authenticated/attachments/${path}`), {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(res.headers.get('content-disposition')).toBeNull();
    await res.arrayBuffer();
  });

  it('uploads a File (multipart, as browsers send it); a PDF is served as an attachment', async () => {
    const path = attachmentPath(alice, 'zmluva.pdf');
    const file = new File([PDF], 'zmluva.pdf', { type: 'application/pdf' });
    const up = await alice.client.storage.from('attachments').upload(path, file);
    expect(up.error).toBeNull();
    const head = await fetch(storageUrl(stack, `/object/attachments/${path}`), {
      method: 'HEAD',
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/pdf');
    expect(head.headers.get('content-length')).toBe(String(PDF.length));
    expect(head.headers.get('content-disposition')).toMatch(/^attachment; filename\*=UTF-8''zmluva\.pdf$/);
    expect((await alice.client.storage.from('attachments').exists(path)).data).toBe(true);
  });

  it('refuses a second upload to the same path with 409 unless upsert, which replaces the bytes', async () => {
    const path = attachmentPath(alice, 'a.pdf');
    const files = alice.client.storage.from('attachments');
    expect((await files.upload(path, PDF, { contentType: 'application/pdf' })).error).toBeNull();
    const again = await files.upload(path, PDF, { contentType: 'application/pdf' });
    expect(again.error).toMatchObject({ statusCode: '409', status: 409 });
    const other = Buffer.concat([PDF, Buffer.from('% v2\n')]);
    expect((await files.upload(path, other, { contentType: 'application/pdf', upsert: true })).error).toBeNull();
    const down = await files.download(path);
    expect(Buffer.from(await down.data!.arrayBuffer())).toEqual(other);
    expect((await files.update(path, PDF, { contentType: 'application/pdf' })).error).toBeNull();
    expect(Buffer.from(await (await files.download(path)).data!.arrayBuffer())).toEqual(PDF);
  });

  it('signs a URL that anyone may GET until it expires', async () => {
    const path = attachmentPath(alice, 'podklad.pdf');
    const files = alice.client.storage.from('attachments');
    expect((await files.upload(path, PDF, { contentType: 'application/pdf' })).error).toBeNull();
    const signed = await files.createSignedUrl(path, 60);
    expect(signed.error).toBeNull();
    expect(signed.data!.signedUrl).toContain(`/storage/v1/object/sign/attachments/${path}?token=`);
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PDF);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('deletes through remove() and the object is gone', async () => {
    const path = attachmentPath(alice, 'zmaz.png');
    const files = alice.client.storage.from('attachments');
    expect((await files.upload(path, PNG, { contentType: 'image/png' })).error).toBeNull();
    const removed = await files.remove([path]);
    expect(removed.error).toBeNull();
    expect(removed.data).toHaveLength(1);
    const down = await files.download(path);
    expect(down.error).not.toBeNull();
    expect((down.error as { status?: number }).status).toBe(404);
    const { rowCount } = await db.query('select 1 from storage.objects where name = $1', [path]);
    expect(rowCount).toBe(0);
  });

  it('answers a missing object 404 in the service shape, and bad input 400, never 500', async () => {
    const res = await fetch(storageUrl(stack, `/object/authenticated/attachments/${alice.accountId}/nic.png`), {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ statusCode: '404', code: 'NoSuchKey', error: 'NoSuchKey', message: 'Object not found' });
    const bad = await fetch(storageUrl(stack, '/object/sign/attachments/x/y'), {
      method: 'POST',
      headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
      body: '{"expiresIn":"soon"}',
    });
    expect(bad.status).toBe(400);
    const noAuth = await fetch(storageUrl(stack, '/object/attachments/x/y'));
    expect(noAuth.status).toBe(400);
  });
});
