// One client socket: heartbeats, joins, leaves, token updates, broadcast and presence pushes.
// Invariants: a socket's frames are handled one at a time in arrival order (a join finishes before
// the next frame of that socket is looked at); a malformed frame is dropped or answered with an error
// reply and never ends the socket; a client that cannot keep up (too much unsent data) is cut off
// rather than buffered without bound; a socket holds at most MAX_CHANNELS channels and may join at
// most MAX_JOINS_PER_SECOND times a second (Supabase's defaults: max_channels_per_client 100 in the
// tenants table, max_joins_per_second 100 in supabase/realtime lib/realtime/api/tenant.ex — there per
// tenant, here per socket), so one socket cannot make the server hold unbounded subscriptions or run
// unbounded catalog queries. Broadcasts obey issue 36 N4's limits (limits.ts: payload cap, per-socket
// and per-topic event and byte rates, each with hosted Realtime's reply), and a socket whose unsent
// data would pass the outbound cap (2 MB) is terminated.
import { WebSocket, type RawData } from 'ws';
import { binaryBroadcast, fanOutBroadcast, payloadBytes, type BroadcastBody } from './broadcast.ts';
import type { Catalog } from './catalog.ts';
import { claimsKeyOf, type Channel, type ChannelSink } from './channel.ts';
import type { ChannelRegistry } from './channel-registry.ts';
import type { FloodGuard } from './flood-guard.ts';
import { planJoin } from './join.ts';
import { channelRights } from './rights.ts';
import { PAYLOAD_SIZE_EXCEEDED, TOO_MANY_MESSAGES, type RateWindow } from './limits.ts';
import type { RlsChecker } from './rls-check.ts';
import { verifyToken, type VerifiedToken } from './jwt.ts';
import type { VerifyingKeys } from '../keys.ts';
import { decodeText, encode, reply, replyError, replyOk, systemMessage, type Frame, type Vsn } from './protocol.ts';

export interface ConnectionContext {
  registry: ChannelRegistry;
  catalog: Catalog;
  /** With the legacy API keys, so a client-sent legacy key can be refused when they are turned off. */
  jwtKeys: VerifyingKeys & { anonKey?: string; serviceRoleKey?: string; legacyDisabled?: boolean };
  rls: RlsChecker;
  nextBindingId: () => number;
  log: (line: string) => void;
  guard: FloodGuard;
  /** False while the LISTEN connection is lost: a join is then refused, as hosted's without its database. */
  postgresUp: () => boolean;
}

/** What subscribers hear while the LISTEN connection is lost (server.ts onDown, and a join meanwhile). */
export const POSTGRES_LOST = 'Lost the connection to PostgreSQL; changes made until it is back are not delivered';

/** Hosted's join refusal while the project's database cannot be reached (realtime_channel.ex). */
export const DATABASE_UNAVAILABLE = 'Realtime was unable to connect to the project database';

/** Channels one socket may hold at once. */
export const MAX_CHANNELS = 100;
/** Joins one socket may make within any second. */
export const MAX_JOINS_PER_SECOND = 100;
/** Longest wait before a token's expiry is looked at again (setTimeout's limit is ~24 days). */
const TOKEN_RECHECK_MS = 60 * 60 * 1000;

/** Supabase's refusal of a private channel (supabase/realtime, lib/realtime_web/channels/realtime_channel.ex). */
function unauthorized(topic: string): string {
  return `Unauthorized: You do not have permissions to read from this Channel topic: ${topic}`;
}

export class Connection implements ChannelSink {
  readonly channels = new Map<string, Channel>();
  lastSeen = Date.now();
  private queue: Promise<void> = Promise.resolve();
  /** Arrival times of this socket's joins within the last second. */
  private recentJoins: number[] = [];
  /** This socket's own broadcasts within the rate window. */
  private readonly sendRate: RateWindow;

  constructor(
    private readonly ws: WebSocket,
    readonly vsn: Vsn,
    /** Used as the token of a join that carries no access_token, as Supabase does. */
    private readonly apikey: string,
    private readonly ctx: ConnectionContext,
  ) {
    this.sendRate = ctx.guard.socketWindow();
    ws.on('message', (data, isBinary) => {
      const arrivedAt = (this.lastSeen = Date.now());
      this.queue = this.queue
        .then(() => this.onMessage(data, isBinary, arrivedAt))
        .catch((err: Error) => ctx.log(`realtime: frame handling failed: ${err.message}`));
    });
    ws.on('close', () => this.dispose());
    ws.on('error', (err) => ctx.log(`realtime: socket error: ${err.message}`));
  }

  send(data: string | Buffer, binary = typeof data !== 'string'): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    // A frame on an empty buffer always goes (one change may be larger than the cap); otherwise the
    // unsent data stays within the cap or the socket, a reader that stopped reading, is cut off.
    const queued = this.ws.bufferedAmount;
    const size = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (queued > 0 && queued + size > this.ctx.guard.limits.maxBufferedBytes) {
      this.ctx.log('realtime: closing a socket that does not read its messages');
      this.ctx.guard.counters.slowSocketsClosed++;
      this.ws.terminate();
      return;
    }
    this.ws.send(data, { binary });
    const counters = this.ctx.guard.counters;
    if (this.ws.bufferedAmount > counters.bufferedPeak) counters.bufferedPeak = this.ws.bufferedAmount;
  }

  /** Unsent bytes queued on this socket. */
  get bufferedAmount(): number {
    return this.ws.bufferedAmount;
  }

  close(code: number, reason: string): void {
    this.ws.close(code, reason);
  }

  terminate(): void {
    this.ws.terminate();
  }

  dispose(): void {
    for (const ch of this.channels.values()) this.drop(ch);
  }

  private async onMessage(data: RawData, isBinary: boolean, arrivedAt: number): Promise<void> {
    const buf = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (isBinary) {
      const push = this.vsn === '2.0.0' ? binaryBroadcast(buf) : null;
      if (push) this.broadcast(push.from, push.body);
      return;
    }
    const frame = decodeText(this.vsn, buf.toString('utf8'));
    if (!frame) return;
    if (frame.topic === 'phoenix') {
      if (frame.event === 'heartbeat') this.send(replyOk(this.vsn, frame));
      return;
    }
    if (frame.event === 'phx_join') {
      try {
        await this.join(frame, arrivedAt);
      } catch (err) {
        this.ctx.log(`realtime: join of ${frame.topic} failed: ${(err as Error).message}`);
        this.send(replyError(this.vsn, frame, 'Realtime was unable to reach the database; try again'));
      }
      return;
    }
    const ch = this.channels.get(frame.topic);
    if (!ch || (frame.joinRef !== null && frame.joinRef !== ch.joinRef)) {
      if (frame.ref !== null) this.send(replyError(this.vsn, frame, 'unmatched topic'));
      return;
    }
    switch (frame.event) {
      case 'phx_leave':
        this.drop(ch);
        this.send(replyOk(this.vsn, frame));
        return;
      case 'access_token':
        return this.updateToken(ch, frame);
      case 'broadcast': {
        const { event, payload } = frame.payload;
        if (typeof event !== 'string')
          return void this.send(replyError(this.vsn, frame, 'broadcast needs an event name'));
        this.broadcast(frame, { kind: 'json', event, payloadJson: JSON.stringify(payload ?? {}) });
        return;
      }
      case 'presence':
        // Presence is accepted and not tracked: the product does not use it.
        this.send(replyOk(this.vsn, frame));
        return;
      default:
        if (frame.ref !== null) this.send(replyError(this.vsn, frame, `unexpected event "${frame.event}"`));
    }
  }

  private broadcast(from: Pick<Frame, 'joinRef' | 'ref' | 'topic'>, body: BroadcastBody): void {
    const ch = this.channels.get(from.topic);
    if (!ch) {
      if (from.ref !== null) this.send(replyError(this.vsn, from, 'unmatched topic'));
      return;
    }
    if (!ch.mayBroadcast) {
      if (from.ref !== null)
        this.send(replyError(this.vsn, from, 'Unauthorized: you may not broadcast on this topic'));
      return;
    }
    const { guard } = this.ctx;
    const size = payloadBytes(body);
    if (size > guard.limits.maxPayloadBytes) {
      // Hosted drops it; only a sender that asked for acks hears why (broadcast_handler.ex).
      guard.counters.payloadsRefused++;
      if (ch.broadcastAck && from.ref !== null) this.send(reply(this.vsn, from, 'error', PAYLOAD_SIZE_EXCEEDED));
      return;
    }
    const now = Date.now();
    const topicRate = guard.topicWindow(ch.topic, ch.private);
    if (this.sendRate.over(now) || topicRate.over(now)) {
      guard.counters.rateLimited++;
      return this.shutdown(ch, TOO_MANY_MESSAGES);
    }
    const frames = fanOutBroadcast(this.ctx.registry, ch, body);
    this.sendRate.add(now, 1, size);
    // As hosted counts them: the message sent and every message a channel received.
    topicRate.add(now, 1 + frames, size * (1 + frames));
    if (ch.broadcastAck && from.ref !== null) this.send(replyOk(this.vsn, from));
  }

  /** `arrivedAt`: when the frame arrived; the join rate is the client's, not our processing speed. */
  private async join(frame: Frame, arrivedAt: number): Promise<void> {
    const sub = frame.topic.startsWith('realtime:') ? frame.topic.slice('realtime:'.length) : null;
    if (!sub) {
      this.send(
        replyError(
          this.vsn,
          frame,
          sub === null ? 'Topics must start with "realtime:"' : 'You must provide a topic name',
        ),
      );
      return;
    }
    this.recentJoins = this.recentJoins.filter((t) => arrivedAt - t < 1000);
    if (this.recentJoins.length >= MAX_JOINS_PER_SECOND)
      return void this.send(replyError(this.vsn, frame, 'Too many joins per second; try again later'));
    this.recentJoins.push(arrivedAt);
    // Phoenix semantics: a second join of a topic replaces the first.
    const previous = this.channels.get(frame.topic);
    if (previous) this.closeChannel(previous);
    else if (this.channels.size >= MAX_CHANNELS)
      return void this.send(
        replyError(this.vsn, frame, `Too many channels: at most ${MAX_CHANNELS} per connection`),
      );

    const raw = frame.payload.access_token ?? frame.payload.user_token;
    if (this.legacyRefused(raw)) return void this.send(replyError(this.vsn, frame, 'Legacy API keys are disabled'));
    const verified = await verifyToken(
      // supabase-js sends its API key as access_token when no one is signed in; a new key (sb_…) is
      // no JWT and stands for the role the gateway resolved from the apikey (never an elevation).
      typeof raw === 'string' && raw !== '' && !raw.startsWith('sb_') ? raw : this.apikey,
      this.ctx.jwtKeys,
    );
    if (!verified.ok) return void this.send(replyError(this.vsn, frame, verified.reason));
    // Hosted refuses a join while it cannot reach the project's database (supabase/realtime
    // lib/realtime_web/channels/realtime_channel.ex join/3: `Connect.lookup_or_start_connection`,
    // {:error, :tenant_database_unavailable}); here that is the LISTEN connection being lost.
    if (!this.ctx.postgresUp()) return void this.send(replyError(this.vsn, frame, DATABASE_UNAVAILABLE));
    const planned = await planJoin(frame.payload, this.ctx.catalog, this.ctx.nextBindingId, verified.token.role);
    if (!planned.ok) {
      if (planned.detail) this.ctx.log(`realtime: refused a join of ${frame.topic}: ${planned.detail}`);
      return void this.send(replyError(this.vsn, frame, planned.reason));
    }
    // Private channels: realtime.messages' policies as the subscriber, as hosted (rights.ts); public
    // ones join freely and only broadcast is gated by the project's topic rule (stricter than hosted).
    const rights = await channelRights(this.ctx.rls, sub, verified.token.claims, planned.plan);
    if (!rights) return void this.send(replyError(this.vsn, frame, unauthorized(sub)));
    if (this.ws.readyState !== WebSocket.OPEN) return;

    const { plan } = planned;
    const ch: Channel = {
      sink: this,
      topic: frame.topic,
      joinRef: frame.joinRef ?? frame.ref,
      token: verified.token,
      claimsKey: claimsKeyOf(verified.token),
      bindings: plan.bindings,
      broadcastSelf: plan.broadcastSelf,
      broadcastAck: plan.broadcastAck,
      topicAllowed: rights.receive,
      mayBroadcast: rights.send,
      presenceEnabled: plan.presenceEnabled,
      private: plan.private,
      open: true,
      tokenTimer: undefined,
    };
    this.channels.set(ch.topic, ch);
    this.ctx.registry.add(ch);
    this.send(replyOk(this.vsn, frame, { postgres_changes: plan.echo }));
    if (plan.bindings.length)
      this.send(
        systemMessage(this.vsn, ch.joinRef, ch.topic, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL'),
      );
    if (plan.presenceEnabled)
      this.send(
        encode(this.vsn, {
          joinRef: ch.joinRef,
          ref: null,
          topic: ch.topic,
          event: 'presence_state',
          payload: {},
        }),
      );
    this.watchExpiry(ch);
  }

  private async updateToken(ch: Channel, frame: Frame): Promise<void> {
    const raw = frame.payload.access_token;
    if (typeof raw !== 'string' || raw === '') return;
    if (this.legacyRefused(raw)) return this.shutdown(ch, 'Legacy API keys are disabled');
    const verified = await verifyToken(raw, this.ctx.jwtKeys);
    if (!ch.open) return;
    if (!verified.ok) return this.shutdown(ch, verified.reason);
    // Until the rights are known for the new token, the channel neither sends nor gets broadcasts.
    ch.topicAllowed = false;
    ch.mayBroadcast = false;
    this.setToken(ch, verified.token);
    const topic = ch.topic.slice('realtime:'.length);
    const rights = await channelRights(this.ctx.rls, topic, verified.token.claims, ch);
    if (ch.token !== verified.token || !ch.open) return;
    if (!rights) return this.shutdown(ch, unauthorized(topic));
    ch.topicAllowed = rights.receive;
    ch.mayBroadcast = rights.send;
  }

  /**
   * A legacy API key sent by the client while LEGACY_API_KEYS=false (as the gateway refuses it as
   * Bearer: gateway/api-key.ts). The connection's own fallback token is the resolved role token and is
   * never checked here.
   */
  private legacyRefused(raw: unknown): boolean {
    const k = this.ctx.jwtKeys;
    return !!k.legacyDisabled && typeof raw === 'string' && (raw === k.anonKey || raw === k.serviceRoleKey);
  }

  private setToken(ch: Channel, token: VerifiedToken): void {
    ch.token = token;
    ch.claimsKey = claimsKeyOf(token);
    this.watchExpiry(ch);
  }

  /** A channel whose token expires is shut down at that moment, as Supabase does. */
  private watchExpiry(ch: Channel): void {
    clearTimeout(ch.tokenTimer);
    const ms = ch.token.exp * 1000 - Date.now();
    if (ms <= 0) return this.shutdown(ch, 'Token has expired 0 seconds ago');
    ch.tokenTimer = setTimeout(() => this.watchExpiry(ch), Math.min(ms + 50, TOKEN_RECHECK_MS));
    ch.tokenTimer.unref();
  }

  /** Supabase's shutdown: a system error message, then phx_close. */
  private shutdown(ch: Channel, message: string): void {
    this.send(systemMessage(this.vsn, ch.joinRef, ch.topic, 'system', 'error', message));
    this.closeChannel(ch);
  }

  private closeChannel(ch: Channel): void {
    this.drop(ch);
    this.send(
      encode(this.vsn, {
        joinRef: ch.joinRef,
        ref: ch.joinRef,
        topic: ch.topic,
        event: 'phx_close',
        payload: {},
      }),
    );
  }

  private drop(ch: Channel): void {
    if (!ch.open) return;
    ch.open = false;
    clearTimeout(ch.tokenTimer);
    this.ctx.registry.remove(ch);
    if (this.channels.get(ch.topic) === ch) this.channels.delete(ch.topic);
  }

  /** Sends a system message on every channel that has postgres_changes bindings. */
  notifyPostgres(status: 'ok' | 'error', message: string): void {
    for (const ch of this.channels.values())
      if (ch.bindings.length)
        this.send(systemMessage(this.vsn, ch.joinRef, ch.topic, 'postgres_changes', status, message));
  }
}
