// Messages between the page (client.ts) and the search worker (worker.ts).
import type { SearchAnswer } from '../../sync/search/device.ts';

export type ToWorker = { type: 'open'; userId: string } | { type: 'search'; id: number; query: string; limit: number };

export type FromWorker =
  | { type: 'ready'; indexed: number; loadedMs: number }
  | { type: 'answer'; id: number; answer: SearchAnswer }
  /** The index gained or lost messages: a shown answer may be stale. */
  | { type: 'changed' }
  | { type: 'failed'; id: number | null; message: string }
  /** The user's databases are being deleted (sign-out): the worker has let go of them. */
  | { type: 'closed' };
