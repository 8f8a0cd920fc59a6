// R6.2 in the app: the chatwoot-pubsub-token function names one contact token per specialist inbox of
// the account; this transport opens a RoomChannel subscription (chatwoot-cable.ts) for each and
// forwards their events. Connected when any subscription is; idle when the account has no Chatwoot
// conversation yet (nothing to listen to). Pass it as `transports.auxiliary` when Chatwoot is on.
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Consumer } from '@rails/actioncable';
import type { Clock } from '../model/clock.ts';
import { isJsonObject } from '../model/json.ts';
import { createChatwootCableTransport } from './chatwoot-cable.ts';
import { statusCell, type Transport, type TransportStatus } from './transport.ts';

export interface ChatwootFeedOptions {
  supabase: SupabaseClient;
  /** wss://HOST/cable of the Chatwoot installation. */
  cableUrl: string;
  clock: Clock;
  accountId?: string;
  userId?: string;
  random?: () => number;
  createConsumer?: (url: string) => Consumer | Promise<Consumer>;
}

interface TokenAnswer {
  accountId: number | string | null;
  tokens: string[];
}

async function fetchTokens(opts: ChatwootFeedOptions): Promise<TokenAnswer> {
  const body: Record<string, string> = {};
  if (opts.accountId) body.account_id = opts.accountId;
  if (opts.userId) body.user_id = opts.userId;
  const res = await opts.supabase.functions.invoke<unknown>('chatwoot-pubsub-token', { method: 'POST', body });
  const data: unknown = res.data;
  if (res.error !== null || !isJsonObject(data)) throw new Error('Failed to fetch pubsub token');
  const account = data.account_id;
  const list = Array.isArray(data.tokens) ? data.tokens : [];
  const tokens = list.map((t) => (isJsonObject(t) && typeof t.pubsub_token === 'string' ? t.pubsub_token : null)).filter((t): t is string => t !== null);
  if (tokens.length === 0 && typeof data.pubsub_token === 'string') tokens.push(data.pubsub_token);
  return { accountId: typeof account === 'number' || typeof account === 'string' ? account : null, tokens };
}

export function createChatwootFeed(opts: ChatwootFeedOptions): Transport {
  const cell = statusCell();
  const parts: Transport[] = [];
  const states = new Map<Transport, TransportStatus>();
  const summarize = () => {
    const all = [...states.values()];
    if (all.some((s) => s === 'connected')) cell.set('connected');
    else if (all.length && all.every((s) => s === 'error')) cell.set('error', 'every Chatwoot subscription failed');
    else cell.set('connecting');
  };
  return {
    name: 'chatwoot-feed',
    status: cell.get,
    subscribe(handlers) {
      cell.attach(handlers);
      cell.set('connecting');
      fetchTokens(opts).then(
        ({ accountId, tokens }) => {
          if (cell.get() === 'closed') return;
          if (accountId === null || tokens.length === 0) {
            cell.set('idle');
            return;
          }
          for (const pubsubToken of tokens) {
            const t = createChatwootCableTransport({
              url: opts.cableUrl,
              clock: opts.clock,
              credentials: async () => ({ pubsubToken, accountId }),
              ...(opts.random ? { random: opts.random } : {}),
              ...(opts.createConsumer ? { createConsumer: opts.createConsumer } : {}),
            });
            parts.push(t);
            t.subscribe({
              onEvent: (e) => cell.emit(e),
              onStatus: (s) => {
                states.set(t, s);
                summarize();
              },
            });
          }
        },
        (err: unknown) => cell.set('error', err instanceof Error ? err.message : String(err)),
      );
    },
    async close() {
      cell.close();
      await Promise.all(parts.splice(0).map((t) => t.close()));
    },
  };
}
