// keys.ts: a DATA_DIR gets an ES256 signing key beside the legacy secret; one from before signing keys
// is upgraded in place without changing the secret or the API keys (issued keys keep working);
// verifyStackJwt picks the key by alg and kid and refuses anything else.
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateKeyPair, importJWK, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/temp-dirs.ts';
import { loadOrCreateKeys, postgrestJwks, publicJwks, signApiKey, verifyStackJwt } from '../../supabase/local/keys.ts';

const tempDir = tempDirs('poradna-keys-');

describe('stack keys', () => {
  it('creates a P-256 signing key with a kid, kept with mode 600 and loaded again unchanged', async () => {
    const dir = await tempDir();
    const keys = await loadOrCreateKeys(dir);
    expect(keys.signingKey.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: keys.signingKey.kid });
    expect(keys.signingKey.publicJwk).not.toHaveProperty('d');
    expect((await stat(join(dir, 'keys.json'))).mode & 0o777).toBe(0o600);
    expect(await loadOrCreateKeys(dir)).toEqual(keys);
    expect(publicJwks(keys)).toEqual({ keys: [keys.signingKey.publicJwk] });
    const forPostgrest = JSON.parse(postgrestJwks(keys)) as { keys: { kty: string; k?: string }[] };
    expect(forPostgrest.keys.map((k) => k.kty)).toEqual(['EC', 'oct']);
    expect(Buffer.from(forPostgrest.keys[1]!.k!, 'base64url').toString('utf8')).toBe(keys.jwtSecret);
  });

  it('adds a signing key to a DATA_DIR from before signing keys, keeping the secret and API keys', async () => {
    const dir = await tempDir();
    const jwtSecret = 'legacy-secret-legacy-secret-legacy-secret';
    const old = { jwtSecret, anonKey: await signApiKey(jwtSecret, 'anon'), serviceRoleKey: await signApiKey(jwtSecret, 'service_role') };
    await writeFile(join(dir, 'keys.json'), JSON.stringify(old), { mode: 0o600 });
    const keys = await loadOrCreateKeys(dir);
    expect(keys).toMatchObject(old);
    expect(keys.signingKey.kid).toEqual(expect.any(String));
    expect(JSON.parse(await readFile(join(dir, 'keys.json'), 'utf8'))).toEqual(keys);
    expect(await verifyStackJwt(old.anonKey, keys)).toMatchObject({ role: 'anon' });
  });

  it('adds the publishable and secret keys to a keys.json from before them, keeping every other key', async () => {
    const dir = await tempDir();
    const { publishableKey: _p, secretKey: _s, ...old } = await loadOrCreateKeys(dir);
    await writeFile(join(dir, 'keys.json'), JSON.stringify(old), { mode: 0o600 });
    const keys = await loadOrCreateKeys(dir);
    expect(keys).toMatchObject(old);
    expect(keys.publishableKey).toMatch(/^sb_publishable_[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{8}$/);
    expect(keys.secretKey).toMatch(/^sb_secret_[A-Za-z0-9_-]{22}_[A-Za-z0-9_-]{8}$/);
    expect(JSON.parse(await readFile(join(dir, 'keys.json'), 'utf8'))).toEqual(keys);
    expect(await loadOrCreateKeys(dir)).toEqual(keys);
  });

  it('verifies ES256 by kid and HS256 by the secret, and refuses other keys, kids and algorithms', async () => {
    const keys = await loadOrCreateKeys(await tempDir());
    const exp = Math.floor(Date.now() / 1000) + 60;
    const priv = await importJWK(keys.signingKey.privateJwk, 'ES256');
    const good = await new SignJWT({ role: 'authenticated', exp }).setProtectedHeader({ alg: 'ES256', kid: keys.signingKey.kid }).sign(priv);
    expect(await verifyStackJwt(good, keys)).toMatchObject({ role: 'authenticated' });
    const other = await generateKeyPair('ES256');
    const bad = [
      await new SignJWT({ exp }).setProtectedHeader({ alg: 'ES256', kid: keys.signingKey.kid }).sign(other.privateKey),
      await new SignJWT({ exp }).setProtectedHeader({ alg: 'ES256', kid: 'other' }).sign(priv),
      await new SignJWT({ exp }).setProtectedHeader({ alg: 'ES256' }).sign(priv),
      await new SignJWT({ exp }).setProtectedHeader({ alg: 'HS512' }).sign(new TextEncoder().encode(keys.jwtSecret)),
      await new SignJWT({ exp: exp - 120 }).setProtectedHeader({ alg: 'ES256', kid: keys.signingKey.kid }).sign(priv),
    ];
    for (const t of bad) await expect(verifyStackJwt(t, keys)).rejects.toThrow();
    // Without a signing key (a realtime server on the legacy secret alone) ES256 is refused.
    await expect(verifyStackJwt(good, { jwtSecret: keys.jwtSecret })).rejects.toThrow();
  });
});
