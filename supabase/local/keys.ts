// The JWT secret and the anon / service_role API keys, generated once per DATA_DIR.
// Invariant: keys live only in DATA_DIR/keys.json (mode 600), never in the repository.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SignJWT } from 'jose';

export interface StackKeys {
  jwtSecret: string;
  anonKey: string;
  serviceRoleKey: string;
}

const TEN_YEARS = 10 * 365 * 24 * 3600;

export async function signApiKey(secret: string, role: 'anon' | 'service_role'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ role, iss: 'poradna-local', ref: 'local' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + TEN_YEARS)
    .sign(new TextEncoder().encode(secret));
}

export async function loadOrCreateKeys(dataDir: string, override?: { jwtSecret?: string }): Promise<StackKeys> {
  const file = join(dataDir, 'keys.json');
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<StackKeys>;
    if (parsed.jwtSecret && parsed.anonKey && parsed.serviceRoleKey) return parsed as StackKeys;
    throw new Error(`${file} is incomplete`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const jwtSecret = override?.jwtSecret ?? randomBytes(40).toString('base64url');
  const keys: StackKeys = {
    jwtSecret,
    anonKey: await signApiKey(jwtSecret, 'anon'),
    serviceRoleKey: await signApiKey(jwtSecret, 'service_role'),
  };
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, JSON.stringify(keys, null, 2), { mode: 0o600 });
  return keys;
}
