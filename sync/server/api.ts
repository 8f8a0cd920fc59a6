// What the engine needs from the server, as one injected interface: the engine's own Supabase
// implementation (supabase-api.ts) in the app, anything in tests. Every method throws ServerError.
import type { JsonObject } from '../model/json.ts';
import type {
  RemoteAccount,
  RemoteConversation,
  RemoteMessage,
  RemotePullPage,
  RemoteReadCursor,
  RemoteSpecialist,
  RemoteStartResult,
} from '../model/remote-types.ts';
import type { TransferLimits } from './metered.ts';

/** transient: retry later (network, timeouts, 5xx, 401/408/429); permanent: the server said no. */
export type ErrorKind = 'transient' | 'permanent';

export class ServerError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly status: number | null = null,
    /** The server's `details` (PostgREST), where a refusal names something (R9.8: the account). */
    readonly details: string | null = null,
  ) {
    super(message);
    this.name = 'ServerError';
  }
}

export interface SendInput {
  conversationId: string;
  text: string;
  correlationId: string;
  payload: JsonObject | null;
  /** R6.5: the conversation is carried by Chatwoot, so the send goes through admin-chatwoot-send. */
  viaChatwoot?: boolean;
}

/** The direct path returns the stored row; an external path may only accept the message. */
export type SendResult = { row: RemoteMessage } | { accepted: true };

export interface HeadLimits {
  conversations: number;
  withMessages: number;
  perConversation: number;
}

export interface RemoteHead {
  conversations: RemoteConversation[];
  messages: RemoteMessage[];
}

export interface StartInput {
  specialistId: string;
  cardId: string | null;
  welcomeText: string | null;
}

export interface ServerApi {
  /** R5.8/R5.9: `transfer` bounds the reply by its bytes' pace (stall, deadline) and meters it. */
  pull(since: number, limit: number, transfer?: TransferLimits): Promise<RemotePullPage>;
  /**
   * R5.11: the newest part of a backlog, read outside the feed: the conversations changed since
   * `since` (latest activity first, at most `conversations`), and the newest `perConversation`
   * messages of the first `withMessages` of them. Optional: without it a backlog comes oldest first.
   */
  pullHead?(since: number, limits: HeadLimits): Promise<RemoteHead>;
  sendMessage(input: SendInput): Promise<SendResult>;
  markRead(conversationId: string, messageId: string): Promise<RemoteReadCursor | null>;
  /** Refusal (no row updated) is a permanent ServerError. */
  setArchived(conversationId: string, archivedAt: string | null): Promise<RemoteConversation | null>;
  startConversation(input: StartInput): Promise<RemoteStartResult>;
  ensureFirstConversation(): Promise<RemoteStartResult>;
  fetchAccountId(userId: string): Promise<string>;
  fetchAccount(accountId: string): Promise<RemoteAccount>;
  fetchActiveSpecialists(accountId: string): Promise<RemoteSpecialist[]>;
}

export function isTransient(err: unknown): boolean {
  return !(err instanceof ServerError) || err.kind === 'transient';
}

export function errorText(err: unknown, fallback: string): string {
  return err instanceof Error && err.message ? err.message : fallback;
}
