// What a tab's sync engine holds, for a journey that failed: its outbox, the messages whose text
// holds a stamp, and the send marks (sync/marks.ts). Read straight from IndexedDB (no app code), so
// it also works when the app's views are what went wrong. Diagnostics only: nothing here asserts.
// queuedOps reads the outbox alone, for a journey that asserts what the device still has to send;
// storedDrafts the drafts store, for a journey that reloads only once a draft is saved (R16.1).
import type { Page } from '@playwright/test';

/** Every row of `store` in the page's sync databases (IndexedDB poradna-sync-*), read without app code. */
function storeRows<T>(page: Page, store: string): Promise<T[]> {
  return page.evaluate(async (store) => {
    const rows: unknown[] = [];
    for (const { name = '' } of await indexedDB.databases()) {
      if (!name.startsWith('poradna-sync-')) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(name);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
      });
      if (db.objectStoreNames.contains(store)) {
        const all = await new Promise<unknown[]>((resolve, reject) => {
          const req = db.transaction(store, 'readonly').objectStore(store).getAll();
          req.onsuccess = () => resolve(req.result as unknown[]);
          req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
        });
        rows.push(...all);
      }
      db.close();
    }
    return rows;
  }, store) as Promise<T[]>;
}

/** The `op.kind` of every entry in the page's sync outboxes. */
export async function queuedOps(page: Page): Promise<string[]> {
  return (await storeRows<{ op?: { kind?: string } }>(page, 'outbox')).map((e) => e.op?.kind ?? '?');
}

/** The composer drafts stored in the page's sync databases (store `drafts`, R16.1). */
export async function storedDrafts(page: Page): Promise<string[]> {
  return (await storeRows<{ text?: string }>(page, 'drafts')).map((r) => r.text ?? '');
}

export async function syncDump(page: Page, stamp: string): Promise<unknown> {
  if (page.isClosed()) return 'closed';
  return page
    .evaluate(async (stamp) => {
      const all = (db: IDBDatabase, store: string) =>
        new Promise<unknown[]>((resolve, reject) => {
          const req = db.transaction(store, 'readonly').objectStore(store).getAll();
          req.onsuccess = () => resolve(req.result as unknown[]);
          req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
        });
      const names = (await indexedDB.databases()).map((d) => d.name ?? '').filter((n) => n.startsWith('poradna-sync-'));
      const dbs: Record<string, unknown> = {};
      for (const name of names) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const req = indexedDB.open(name);
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
        });
        const messages = (await all(db, 'messages')) as { text?: string }[];
        dbs[name] = {
          outbox: await all(db, 'outbox'),
          messages: messages.filter((m) => typeof m.text === 'string' && m.text.includes(stamp)),
          meta: await all(db, 'meta'),
        };
        db.close();
      }
      const marks = performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith('poradna:send'))
        .slice(-40)
        .map((m) => ({ name: m.name, t: Math.round(m.startTime), detail: (m as PerformanceMark).detail as unknown }));
      return { url: location.href, visibility: document.visibilityState, dbs, marks };
    }, stamp)
    .catch((err: unknown) => `dump failed: ${String(err)}`);
}

/** Collects a page's console lines (warnings carry the engine's and the composer's failures). */
export function collectConsole(page: Page, label: string, into: string[]): void {
  page.on('console', (m) => into.push(`[${label} ${new Date().toISOString()} ${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => into.push(`[${label} ${new Date().toISOString()} pageerror] ${e.message}`));
}
