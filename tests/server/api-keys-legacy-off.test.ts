// LEGACY_API_KEYS=false, the dashboard's "disable legacy API keys": the JWT anon / service_role keys
// answer 401 "Legacy API keys are disabled" on REST, auth and realtime, also when the service_role
// key rides as Bearer beside the publishable key (else a leaked legacy key would still elevate);
// the publishable and secret keys keep working. Its own stack: the setting is read at start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../supabase/local/config.ts';
import { keyClient } from '../helpers/clients.ts';
import { startTestStack, type TestStack } from '../helpers/stack.ts';
import { realtimeUrl, upgradeStatus } from './realtime-helpers.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack({ legacyApiKeys: readConfig({ LEGACY_API_KEYS: 'false' }).legacyApiKeys });
});
afterAll(async () => {
  await stack?.destroy();
});


describe('legacy API keys turned off', () => {
  it('refuses the anon and service_role keys on REST and auth with 401', async () => {
    const { anonKey, serviceRoleKey, publishableKey } = stack.keys;
    const attempts: Record<string, string>[] = [
      { apikey: anonKey },
      { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` },
      { apikey: publishableKey, authorization: `Bearer ${serviceRoleKey}` },
    ];
    for (const headers of attempts) {
      for (const path of ['/rest/v1/conversations?select=id', '/auth/v1/admin/users']) {
        const res = await fetch(`${stack.url}${path}`, { headers });
        expect(res.status, `${path} ${Object.keys(headers).join('+')}`).toBe(401);
        expect(await res.json()).toMatchObject({ message: 'Legacy API keys are disabled' });
      }
    }
    const { error } = await keyClient(stack.url, serviceRoleKey).auth.admin.listUsers({ page: 1, perPage: 1 });
    expect(error?.status).toBe(401);
    expect(await upgradeStatus(realtimeUrl(stack.url, anonKey))).toBe(401);
  });

  it('refuses a realtime join whose access_token is a legacy key, beside the publishable apikey', async () => {
    const c = keyClient(stack.url, stack.keys.publishableKey);
    await c.realtime.setAuth(stack.keys.serviceRoleKey);
    const refusal = await new Promise<string>((resolve) => {
      c.channel(`legacy-${Date.now()}`).subscribe((status, err) => resolve(`${status} ${err?.message ?? ''}`));
    });
    expect(refusal).toMatch(/^CHANNEL_ERROR .*Legacy API keys are disabled/);
    await c.removeAllChannels();
  });

  it('keeps the publishable and secret keys working', async () => {
    const { error } = await keyClient(stack.url, stack.keys.secretKey).auth.admin.listUsers({ page: 1, perPage: 1 });
    expect(error).toBeNull();
    const publishable = keyClient(stack.url, stack.keys.publishableKey);
    const signIn = await publishable.auth.signInWithPassword({ email: 'demo@poradna.test', password: 'poradna123' });
    expect(signIn.error).toBeNull();
    const { count, error: readError } = await publishable.from('conversations').select('id', { count: 'exact', head: true });
    expect(readError).toBeNull();
    expect(count).toBeGreaterThan(0);
    expect(await upgradeStatus(realtimeUrl(stack.url, stack.keys.publishableKey))).toBe(101);
  });

  it('storage too (issue 38): a legacy key as apikey or as Bearer is refused with 401; the secret key works', async () => {
    const { anonKey, serviceRoleKey, secretKey } = stack.keys;
    const path = '/storage/v1/object/authenticated/attachments/nikde/nic/nic/x.txt';
    const attempts: Record<string, string>[] = [
      { apikey: anonKey },
      { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` },
      { authorization: `Bearer ${serviceRoleKey}` },
    ];
    for (const headers of attempts) {
      const res = await fetch(`${stack.url}${path}`, { headers });
      expect(res.status, Object.keys(headers).join('+')).toBe(401);
      expect(await res.json()).toMatchObject({ message: 'Legacy API keys are disabled' });
    }
    const server = keyClient(stack.url, secretKey).storage.from('attachments');
    const name = `server/${Date.now()}/a/poznamka.txt`;
    expect((await server.upload(name, Buffer.from('ahoj'), { contentType: 'text/plain' })).error).toBeNull();
    expect((await server.download(name)).error).toBeNull();
  });
});
