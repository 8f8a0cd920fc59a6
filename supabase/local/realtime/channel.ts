// The state of one joined channel (one topic on one socket) and of its postgres_changes bindings.
import type { Condition } from './filters.ts';
import type { Vsn } from './protocol.ts';
import type { VerifiedToken } from './jwt.ts';

export type ChangeType = 'INSERT' | 'UPDATE' | 'DELETE';

export interface PgBinding {
  /** Server-assigned, unique for the server's lifetime; realtime-js routes events by it. */
  id: number;
  /** null = every event type ('*'). */
  type: ChangeType | null;
  schema: string;
  /** null = every table of the schema. */
  table: string | null;
  conditions: Condition[];
  /** Columns to send (the binding's `select`), or null for all. */
  select: string[] | null;
}

/** What a channel needs from the socket it lives on. */
export interface ChannelSink {
  readonly vsn: Vsn;
  /** A string goes as a text frame; a Buffer as a binary frame unless `binary` is false. */
  send(data: string | Buffer, binary?: boolean): void;
}

export interface Channel {
  sink: ChannelSink;
  topic: string;
  joinRef: string | null;
  token: VerifiedToken;
  /** Claims as JSON; subscribers with identical claims share one RLS check. */
  claimsKey: string;
  bindings: PgBinding[];
  broadcastSelf: boolean;
  broadcastAck: boolean;
  /**
   * The token may receive broadcasts of this topic (rights.ts), decided at join and at every token
   * update: a private channel's broadcast read policy, a public one's topic rule.
   */
  topicAllowed: boolean;
  /** The token may push broadcasts here (a private channel's write policy, a public one's topic rule). */
  mayBroadcast: boolean;
  /** Joined with config.presence.enabled (a private channel's rights then include presence read). */
  presenceEnabled: boolean;
  /** Joined with config.private: the topic rule must keep admitting its token, or it is shut down. */
  private: boolean;
  /** Cleared when the channel is left or closed; deliveries prepared earlier then skip it. */
  open: boolean;
  tokenTimer: NodeJS.Timeout | undefined;
}

export function claimsKeyOf(token: VerifiedToken): string {
  return JSON.stringify(token.claims);
}
