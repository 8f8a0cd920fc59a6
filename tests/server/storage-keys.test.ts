// Storage behind the gateway's API-key resolution (issue 38; supabase/cli kong.yml storage-v1 carries
// the same BearerToken rewrite as /rest/v1): unmodified supabase-js `storage` with the new
// sb_publishable_/sb_secret_ keys works as on hosted, and the secret key is the service role.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { keyClient } from '../helpers/clients.ts';
import { member, attachmentPath, PNG, storageUrl, type Member } from './storage-helpers.ts';

const stack = inject('stack');
let alice: Member;

beforeAll(async () => {
  alice = await member(stack, 'st-keys');
});

describe('storage with the new API keys', () => {
  it('a member signed in through the publishable key uploads, signs and downloads their attachment', async () => {
    const c = keyClient(stack.url, stack.publishableKey);
    const { data: session, error: signInError } = await c.auth.signInWithPassword({ email: alice.email, password: 'heslo12345' });
    expect(signInError).toBeNull();
    expect(session.session).not.toBeNull();
    const path = attachmentPath(alice, 'logo.png');
    const up = await c.storage.from('attachments').upload(path, PNG, { contentType: 'image/png' });
    expect(up.error).toBeNull();
    const signed = await c.storage.from('attachments').createSignedUrl(path, 60);
    expect(signed.error).toBeNull();
    const res = await fetch(signed.data!.signedUrl);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
  });

  it('the secret key (server code, no session) acts as service_role: it reads and writes any account folder', async () => {
    const server = keyClient(stack.url, stack.secretKey);
    const path = attachmentPath(alice, 'od-servera.png');
    const up = await server.storage.from('attachments').upload(path, PNG, { contentType: 'image/png' });
    expect(up.error).toBeNull();
    const down = await server.storage.from('attachments').download(path);
    expect(down.error).toBeNull();
    expect(Buffer.from(await down.data!.arrayBuffer())).toEqual(PNG);
  });

  it('the publishable key with no session is anon: RLS refuses its write (403), it is not an invalid token', async () => {
    const anon = keyClient(stack.url, stack.publishableKey);
    const up = await anon.storage.from('attachments').upload(attachmentPath(alice, 'cudzie.png'), PNG, { contentType: 'image/png' });
    expect(up.error).not.toBeNull();
    expect((up.error as { statusCode?: string }).statusCode).toBe('403');
  });

  it('an unknown apikey is refused by the gateway with 401 before storage', async () => {
    const res = await fetch(storageUrl(stack, `/object/authenticated/attachments/${attachmentPath(alice, 'x.png')}`), {
      headers: { apikey: 'sb_publishable_forged', authorization: `Bearer ${alice.token}` },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ message: 'Invalid API key' });
  });
});
