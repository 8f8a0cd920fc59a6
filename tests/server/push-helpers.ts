// Test side of Web Push (issue 20): a fake RFC 8030 push service on loopback, browser-like
// subscription keys, and the RFC 8291 (aes128gcm) decryption a browser does — written here from the
// RFCs with node:crypto, never through web-push, so the test checks the server against the standard.
import { createECDH, createDecipheriv, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { importJWK, jwtVerify, type JWTPayload } from 'jose';

export interface PushRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface FakePushService {
  url: string;
  /** Its self-signed certificate (PEM): the stack trusts it through PUSH_CA_CERT. */
  caCert: string;
  requests: PushRequest[];
  /** TCP connections accepted (a refused TLS handshake still counts: the server was reached). */
  connections(): number;
  /** The HTTP status answered for a path (default 201 Created, as RFC 8030 section 5 says). */
  answer(path: string, status: number): void;
  /** Never answer requests to `path` (a device whose push service does not respond). */
  hang(path: string): void;
  /** Requests to a hung path whose connection the sender has not closed yet. */
  hanging(path: string): number;
  /** Reset the connection of requests to `path` without an answer (a push service that is down). */
  drop(path: string): void;
  /** Resolves once `n` requests have reached `path` (or any path without one). */
  waitFor(n: number, path?: string, timeoutMs?: number): Promise<PushRequest[]>;
  close(): Promise<void>;
}

/** A throwaway self-signed certificate for 127.0.0.1 (push services are reached over TLS only). */
function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'fake-push-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startFakePushService(): Promise<FakePushService> {
  const requests: PushRequest[] = [];
  const answers = new Map<string, number>();
  const hung = new Map<string, number>();
  const dropped = new Set<string>();
  const tls = selfSigned();
  const server: Server = createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      if (dropped.has(path)) return void req.socket.destroy();
      if (hung.has(path)) {
        hung.set(path, hung.get(path)! + 1);
        req.socket.once('close', () => hung.set(path, hung.get(path)! - 1));
        return;
      }
      res.writeHead(answers.get(path) ?? 201, { location: `/msg/${randomUUID()}` });
      res.end();
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const matching = (path?: string) => requests.filter((r) => path === undefined || r.path === path);
  return {
    url: `https://127.0.0.1:${port}`,
    caCert: tls.cert,
    requests,
    connections: () => connections,
    answer: (path, status) => answers.set(path, status),
    hang: (path) => hung.set(path, 0),
    hanging: (path) => hung.get(path) ?? 0,
    drop: (path) => dropped.add(path),
    waitFor: async (n, path, timeoutMs = 30_000) => {
      const end = Date.now() + timeoutMs;
      while (matching(path).length < n) {
        if (Date.now() > end) throw new Error(`fake push service: ${matching(path).length} of ${n} requests to ${path ?? 'any path'}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return matching(path);
    },
    close: () => {
      server.closeAllConnections(); // hung requests would keep close() waiting
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** What a browser's PushManager.subscribe() holds: a P-256 key pair and a 16-byte auth secret. */
export interface DeviceKeys {
  ecdh: ReturnType<typeof createECDH>;
  p256dh: string;
  auth: string;
}

export function deviceKeys(): DeviceKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
}

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();

/** RFC 8291 section 3.4 + RFC 8188: decrypts an aes128gcm push message body with the device's keys. */
export function decryptPush(body: Buffer, device: DeviceKeys): string {
  // RFC 8188 section 2.1 header: salt(16) | rs(4) | idlen(1) | keyid(idlen) = the sender's public key.
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body.readUInt8(20);
  const asPublic = body.subarray(21, 21 + idlen);
  const records = body.subarray(21 + idlen);
  if (idlen !== 65) throw new Error(`keyid must be a 65-byte P-256 point, got ${idlen}`);
  if (records.length > rs) throw new Error('a push message must be a single record');
  const uaPublic = device.ecdh.getPublicKey();
  const ecdhSecret = device.ecdh.computeSecret(asPublic);
  const authSecret = Buffer.from(device.auth, 'base64url');
  // RFC 8291 section 3.3: PRK_key = HMAC(auth_secret, ecdh_secret); IKM = HMAC(PRK_key, key_info || 0x01).
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic, Buffer.from([1])]);
  const ikm = hmac(hmac(authSecret, ecdhSecret), keyInfo);
  // RFC 8188 section 2.2/2.3: PRK = HMAC(salt, IKM); CEK and NONCE from their infos.
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0\x01', 'binary')).subarray(0, 16);
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0\x01', 'binary')).subarray(0, 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(records.subarray(records.length - 16));
  const padded = Buffer.concat([decipher.update(records.subarray(0, records.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02 followed by zero padding (RFC 8188 section 2).
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('missing the last-record delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** RFC 8292: `Authorization: vapid t=<JWT>, k=<public key>`; verifies t with k (ES256) and returns
 *  the claims and k. */
export async function verifyVapid(headers: IncomingHttpHeaders): Promise<{ claims: JWTPayload; k: string }> {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(headers.authorization ?? '');
  if (!m) throw new Error(`not a VAPID authorization: ${headers.authorization}`);
  const point = Buffer.from(m[2]!, 'base64url');
  const key = await importJWK(
    { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    'ES256',
  );
  const { payload } = await jwtVerify(m[1]!, key, { algorithms: ['ES256'] });
  return { claims: payload, k: m[2]! };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it returns a value other than undefined. */
export async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}
