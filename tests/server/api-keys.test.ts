// The publishable and secret API keys through unmodified supabase-js on every route, as hosted
// Supabase takes them (gateway/api-key.ts): the publishable key runs as anon (or as the signed-in
// user), the secret key as service_role (REST and the auth admin API), realtime joins with the
// publishable key; the attacks are refused: the secret key from a browser (401), a new key sent as
// Bearer choosing the role (never: the apikey decides), a publishable key with no apikey.
import { describe, expect, inject, it } from 'vitest';
import { keyClient, type Client } from '../helpers/clients.ts';
import { realtimeUrl, upgradeStatus } from './realtime-helpers.ts';

const stack = inject('stack');
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** What a client may see of the conversations table: the rows' count, or the refusal. */
async function conversationsSeenBy(c: Client): Promise<{ count: number | null; error: string | null }> {
  const { count, error } = await c.from('conversations').select('id', { count: 'exact', head: true });
  return { count, error: error?.code ?? null };
}


describe('publishable and secret API keys', () => {
  it('are opaque sb_publishable_ / sb_secret_ keys, not JWTs', () => {
    expect(stack.publishableKey).toMatch(/^sb_publishable_[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{8}$/);
    expect(stack.secretKey).toMatch(/^sb_secret_[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{8}$/);
  });

  it('the publishable key runs REST as anon, and as the user once signed in', async () => {
    const legacyAnon = await conversationsSeenBy(keyClient(stack.url, stack.anonKey));
    const publishable = keyClient(stack.url, stack.publishableKey);
    expect(await conversationsSeenBy(publishable)).toEqual(legacyAnon);
    const { error } = await publishable.auth.signInWithPassword({ email: 'demo@poradna.test', password: 'poradna123' });
    expect(error).toBeNull();
    const asDemo = await conversationsSeenBy(publishable);
    expect(asDemo.error).toBeNull();
    expect(asDemo.count).toBeGreaterThan(0);
    expect(asDemo).not.toEqual(legacyAnon);
  });

  it('the secret key runs REST as service_role and may use the auth admin API', async () => {
    const secret = keyClient(stack.url, stack.secretKey);
    const all = await conversationsSeenBy(secret);
    expect(all).toEqual(await conversationsSeenBy(keyClient(stack.url, stack.serviceRoleKey)));
    expect(all.count).toBeGreaterThan(0);
    const { data, error } = await secret.auth.admin.listUsers({ page: 1, perPage: 1 });
    expect(error).toBeNull();
    expect(data.users).toHaveLength(1);
  });

  it('the publishable key joins realtime as anon', async () => {
    const c = keyClient(stack.url, stack.publishableKey);
    const status = await new Promise<string>((resolve) => {
      c.channel(`keys-${Date.now()}`).subscribe((s) => resolve(s));
    });
    expect(status).toBe('SUBSCRIBED');
    await c.removeAllChannels();
    expect(await upgradeStatus(realtimeUrl(stack.url, stack.publishableKey))).toBe(101);
  });

  it('functions: a member signed in with the publishable key is the caller; the key alone is no caller', async () => {
    const keyOnly = keyClient(stack.url, stack.publishableKey);
    const refused = await keyOnly.functions.invoke('ensure-first-conversation', { body: {} });
    expect((refused.error as { context?: Response } | null)?.context?.status).toBe(401);
    expect(await (refused.error as { context: Response }).context.json()).toEqual({ error: 'No auth token available' });
    const { error } = await keyOnly.auth.signInWithPassword({ email: 'demo@poradna.test', password: 'poradna123' });
    expect(error).toBeNull();
    const ok = await keyOnly.functions.invoke('ensure-first-conversation', { body: {} });
    expect(ok.error).toBeNull();
    expect(ok.data).toMatchObject({ conversation_id: expect.any(String) });
  });

  it('refuses the secret key from a browser User-Agent with 401 on REST, auth and realtime', async () => {
    const headers = { apikey: stack.secretKey, authorization: `Bearer ${stack.secretKey}`, 'user-agent': BROWSER_UA };
    for (const path of ['/rest/v1/conversations?select=id', '/auth/v1/admin/users']) {
      const res = await fetch(`${stack.url}${path}`, { headers });
      expect(res.status, path).toBe(401);
      expect(await res.json()).toEqual({ message: 'Forbidden use of secret API key in browser' });
    }
    const inBrowser = keyClient(stack.url, stack.secretKey, { 'User-Agent': BROWSER_UA });
    const { error } = await inBrowser.auth.admin.listUsers({ page: 1, perPage: 1 });
    expect(error?.status).toBe(401);
    expect(await upgradeStatus(realtimeUrl(stack.url, stack.secretKey), { 'user-agent': BROWSER_UA })).toBe(401);
    // The same key from a server (Node's fetch, no browser User-Agent) is let in.
    expect(await upgradeStatus(realtimeUrl(stack.url, stack.secretKey))).toBe(101);
  });

  it('never elevates a publishable apikey, whatever new key the Bearer carries', async () => {
    const anonView = await fetch(`${stack.url}/rest/v1/conversations?select=id`, { headers: { apikey: stack.anonKey } });
    const anonBody = await anonView.text();
    const res = await fetch(`${stack.url}/rest/v1/conversations?select=id`, {
      headers: { apikey: stack.publishableKey, authorization: `Bearer ${stack.secretKey}` },
    });
    expect({ status: res.status, body: await res.text() }).toEqual({ status: anonView.status, body: anonBody });
    const admin = await fetch(`${stack.url}/auth/v1/admin/users`, {
      headers: { apikey: stack.publishableKey, authorization: `Bearer ${stack.secretKey}` },
    });
    expect(admin.status).toBe(403);
    await admin.body?.cancel();
  });

  it('refuses a new key sent only as Bearer (no apikey) and an unknown sb_ key', async () => {
    const bearerOnly = await fetch(`${stack.url}/rest/v1/conversations?select=id`, {
      headers: { authorization: `Bearer ${stack.publishableKey}` },
    });
    expect(bearerOnly.status).toBe(401);
    expect(await bearerOnly.json()).toEqual({ message: 'No API key found in request' });
    // The real key with its last character changed (to one it is not: a key ending in 'x' made the
    // "forged" key the real one, 200, in the run of 19a2407).
    const last = stack.secretKey.slice(-1);
    const forgedKey = `${stack.secretKey.slice(0, -1)}${last === 'x' ? 'y' : 'x'}`;
    expect(forgedKey).not.toBe(stack.secretKey);
    const forged = await fetch(`${stack.url}/rest/v1/conversations?select=id`, {
      headers: { apikey: forgedKey },
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ message: 'Invalid API key' });
  });
});
