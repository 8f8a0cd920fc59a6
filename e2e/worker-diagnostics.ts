// What a journey about work done with no tab open can tell when it fails: the service worker's own
// log of its Background Sync events (sw.ts writes one line as each starts and ends), whether its
// network is up, what the device still holds, and what the server stored. Found the cause of
// pwa-background-upload's failures (session 42): the device held no job at all, because the tab had
// closed before the send was stored.
import type { BrowserContext } from '@playwright/test';

export interface WorkerLog {
  /** Every line so far, each with the time it arrived. */
  text(): string;
  /** How many events have ended with this outcome ('flushed', 'empty', 'failed', …; backgroundFlush), or at all. */
  ended(outcome?: string): number;
  /** Events started and not ended yet. */
  running(): number;
}

/** Collects the worker's 'Background Sync: …' lines from now on. */
export function recordWorkerLog(context: BrowserContext): WorkerLog {
  const lines: { at: string; text: string }[] = [];
  const ended = (outcome?: string) => lines.filter((l) => (outcome ? l.text.startsWith(`Background Sync: ${outcome} in `) : / in \d+ ms/.test(l.text))).length;
  context.on('console', (m) => {
    if (m.text().startsWith('Background Sync')) lines.push({ at: new Date().toISOString().slice(11, 23), text: m.text() });
  });
  return {
    text: () => lines.map((l) => `${l.at} ${l.text}`).join('\n') || '(nothing)',
    ended,
    running: () => lines.filter((l) => l.text === 'Background Sync: started').length - ended(),
  };
}

const workerOf = (context: BrowserContext, origin: string) => context.serviceWorkers().find((w) => w.url().startsWith(origin));

/** What the worker's own fetch sees now: any HTTP status means it is online (the emulated offline lifted). */
export async function workerNetwork(context: BrowserContext, origin: string): Promise<string> {
  const sw = workerOf(context, origin);
  if (!sw) return 'no service worker';
  return sw
    .evaluate(async (url) => {
      try {
        return `HTTP ${(await fetch(url, { cache: 'no-store' })).status}`;
      } catch (err) {
        return `fetch failed: ${String(err)}`;
      }
    }, `${origin}/auth/v1/health`)
    .catch((err: unknown) => `evaluate failed: ${String(err)}`);
}

/** The device's databases as the worker reads them: queues whole, a few messages whole, other stores counted. */
export async function deviceQueues(context: BrowserContext, origin: string): Promise<string> {
  const sw = workerOf(context, origin);
  if (!sw) return 'no service worker';
  return sw
    .evaluate(async () => {
      const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('poradna-'));
      const out: Record<string, unknown> = {};
      for (const name of names) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open(name);
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(new Error(String(req.error)));
        });
        for (const store of [...db.objectStoreNames].filter((s) => s !== 'attachmentBlobs')) {
          const rows = await new Promise<unknown[]>((resolve, reject) => {
            const req = db.transaction(store).objectStore(store).getAll();
            req.onsuccess = () => resolve(req.result as unknown[]);
            req.onerror = () => reject(new Error(String(req.error)));
          });
          const whole = ['outbox', 'attachmentJobs', 'attachmentUploads'].includes(store) || (store === 'messages' && rows.length < 10);
          out[`${name}/${store}`] = whole ? rows : rows.length;
        }
        db.close();
      }
      return JSON.stringify(out);
    })
    .catch((err: unknown) => `evaluate failed: ${String(err)}`);
}

/** Every message of the conversation as the service role sees it. */
export async function serverMessages(baseURL: string, conversationId: string): Promise<string> {
  const key = process.env.E2E_SERVICE_KEY ?? '';
  const res = await fetch(`${baseURL}/rest/v1/messages?select=created_at,direction,text,payload&conversation_id=eq.${conversationId}&order=created_at`, {
    headers: { apikey: key, Authorization: `Bearer ${key}` },
  });
  return res.ok ? JSON.stringify(await res.json()) : `HTTP ${res.status}`;
}
