// The page's side of the search worker: one worker per signed-in user, started after the first
// paint (start.ts) and asked by the results screen. Answers come back in the order asked; a screen
// shows only the answer to its latest query.
import type { SearchAnswer } from '../../sync/search/device.ts';
import type { FromWorker, ToWorker } from './protocol.ts';

export interface SearchClient {
  userId: string;
  search(query: string, limit?: number): Promise<SearchAnswer>;
  /** Told when the index changed (a shown answer is asked again). */
  onChange(fn: () => void): () => void;
  close(): void;
}

let current: SearchClient | null = null;

export function searchClient(userId: string): SearchClient {
  if (current?.userId === userId) return current;
  current?.close();
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'poradna-search' });
  const waiting = new Map<number, { resolve: (a: SearchAnswer) => void; reject: (e: Error) => void }>();
  const listeners = new Set<() => void>();
  let next = 1;
  const post = (m: ToWorker) => worker.postMessage(m);
  const client: SearchClient = {
    userId,
    search(query, limit = 50) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        post({ type: 'search', id, query, limit });
      });
    },
    onChange(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    close() {
      worker.terminate();
      for (const w of waiting.values()) w.reject(new Error('search closed'));
      waiting.clear();
      if (current === client) current = null;
    },
  };
  worker.onmessage = (e: MessageEvent<FromWorker>) => {
    const m = e.data;
    if (m.type === 'answer') {
      waiting.get(m.id)?.resolve(m.answer);
      waiting.delete(m.id);
    } else if (m.type === 'failed') {
      if (m.id === null) console.warn('search:', m.message);
      else {
        waiting.get(m.id)?.reject(new Error(m.message));
        waiting.delete(m.id);
      }
    } else if (m.type === 'changed') {
      for (const fn of listeners) fn();
    } else if (m.type === 'closed') client.close();
  };
  post({ type: 'open', userId });
  current = client;
  return client;
}
