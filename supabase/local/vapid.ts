// The local stack's VAPID key pair (RFC 8292) for Web Push, generated with web-push on first start
// into DATA_DIR/vapid.json (mode 600) and kept, so browsers' subscriptions stay valid across
// restarts. VAPID_PUBLIC_KEY + VAPID_PRIVATE_KEY in the environment take precedence (a deployment
// that must keep the keys of another installation). Invariant: the private key never leaves the
// server; only the public key reaches pages (/env.js vapidPublicKey).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import webpush from 'web-push';

export interface VapidKeyPair {
  publicKey: string;
  privateKey: string;
}

export async function loadOrCreateVapidKeys(dataDir: string, override?: { publicKey?: string | undefined; privateKey?: string | undefined }): Promise<VapidKeyPair> {
  if (override?.publicKey && override.privateKey) return { publicKey: override.publicKey, privateKey: override.privateKey };
  const file = join(dataDir, 'vapid.json');
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as Partial<VapidKeyPair>;
    if (saved.publicKey && saved.privateKey) return { publicKey: saved.publicKey, privateKey: saved.privateKey };
  } catch {
    /* first start: generate below */
  }
  const keys = webpush.generateVAPIDKeys();
  await writeFile(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}
