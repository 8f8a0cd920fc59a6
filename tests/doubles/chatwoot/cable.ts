// ActionCable endpoint at /cable speaking actioncable-v1-json with one channel, RoomChannel.
// Wire facts (reference/chatwoot.md): welcome on connect, pings every 3 s, identifiers echoed byte
// for byte, confirm on a successful subscribe, and NO reply at all for a bad token (Chatwoot's
// find_by! raises inside `subscribed`, so the client keeps re-sending subscribe every 500 ms).
// Broadcasts stream per pubsub token: every subscription opened with a token gets the frames sent
// to that token, each framed with its own identifier. Delivery is deferred with setImmediate so a
// broadcast may reach a client before the REST reply that caused it, as in Chatwoot.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { conversationPush, messagePush, contactPush, userPush } from './serialize.ts';
import type { ChatwootStore } from './store.ts';
import { MESSAGE_TYPES, type DomainEvent, type JsonObject } from './types.ts';

export const CABLE_PROTOCOL = 'actioncable-v1-json';

type Subject =
  | { type: 'user'; agentId: number; accountId: number }
  | { type: 'contact'; contactId: number; accountId: number };

interface Subscription {
  identifier: string;
  token: string;
  subject: Subject;
}

interface Connection {
  ws: WebSocket;
  subs: Map<string, Subscription>;
}

export interface CableOptions {
  /** Chatwoot/Rails ping every 3 s; the client treats 6 s of silence as stale. */
  pingIntervalMs: number;
  /** Presence lifetime after the last subscribe/update_presence. Chatwoot uses 20 s while the product
   *  spec pings every 30 s, so with the defaults a user flickers offline between pings. */
  presenceTtlMs: number;
}

const rawText = (raw: RawData): string =>
  Buffer.isBuffer(raw)
    ? raw.toString('utf8')
    : Array.isArray(raw)
      ? Buffer.concat(raw).toString('utf8')
      : Buffer.from(raw).toString('utf8');

function parseObject(text: string): JsonObject | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : null;
  } catch {
    return null;
  }
}

export class CableServer {
  private readonly wss: WebSocketServer;
  private readonly conns = new Set<Connection>();
  private readonly pingTimer: NodeJS.Timeout;
  /** `${accountId}:user:${id}` / `${accountId}:contact:${id}` → last presence time (ms). */
  private readonly presence = new Map<string, number>();

  constructor(
    private readonly store: ChatwootStore,
    private readonly opts: CableOptions,
  ) {
    this.wss = new WebSocketServer({
      noServer: true,
      handleProtocols: (offered) => (offered.has(CABLE_PROTOCOL) ? CABLE_PROTOCOL : false),
    });
    this.pingTimer = setInterval(() => this.pingAll(), opts.pingIntervalMs);
    this.pingTimer.unref();
  }

  get connectionCount(): number {
    return this.conns.size;
  }

  /** Whether an open connection holds a confirmed subscription streaming `token`'s frames. */
  isSubscribed(token: string): boolean {
    for (const conn of this.conns) for (const sub of conn.subs.values()) if (sub.token === token) return true;
    return false;
  }

  /** Takes an HTTP upgrade for /cable; returns false for other paths so the caller can refuse them. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = new URL(req.url ?? '/', 'http://double').pathname;
    if (path !== '/cable') return false;
    const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
    if (!offered.includes(CABLE_PROTOCOL)) {
      // A client that cannot speak actioncable-v1-json would drop the socket anyway; refuse loudly.
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return true;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws));
    return true;
  }

  private onConnection(ws: WebSocket): void {
    const conn: Connection = { ws, subs: new Map() };
    this.conns.add(conn);
    ws.on('message', (raw) => this.onCommand(conn, rawText(raw)));
    ws.on('close', () => this.conns.delete(conn));
    ws.on('error', () => this.conns.delete(conn));
    this.send(conn, { type: 'welcome' });
  }

  private send(conn: Connection, frame: JsonObject): void {
    if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(JSON.stringify(frame));
  }

  private pingAll(): void {
    const message = Math.floor(Date.now() / 1000);
    for (const conn of this.conns) this.send(conn, { type: 'ping', message });
  }

  private onCommand(conn: Connection, text: string): void {
    const cmd = parseObject(text);
    if (!cmd || typeof cmd.identifier !== 'string') return; // Rails logs and drops malformed commands
    const identifier = cmd.identifier;
    if (cmd.command === 'subscribe') {
      const subject = this.authorise(identifier);
      if (!subject) return; // never confirmed, never rejected
      const token = subject.token;
      // A duplicate subscribe (the client's 500 ms guarantor) re-runs `subscribed` and confirms again,
      // but the stream is not doubled: one subscription per identifier per connection.
      conn.subs.set(identifier, { identifier, token, subject: subject.subject });
      this.send(conn, { identifier, type: 'confirm_subscription' });
      this.touchPresence(subject.subject);
      this.broadcastPresence(token, subject.subject);
    } else if (cmd.command === 'unsubscribe') {
      conn.subs.delete(identifier);
    } else if (cmd.command === 'message') {
      const sub = conn.subs.get(identifier);
      const data = typeof cmd.data === 'string' ? parseObject(cmd.data) : null;
      if (!sub || data?.action !== 'update_presence') return;
      this.touchPresence(sub.subject);
      this.broadcastPresence(sub.token, sub.subject);
    }
  }

  /** RoomChannel's rule: with user_id the token must be that agent's and the agent a member of
   *  account_id; without user_id it must be a contact_inbox's token. */
  private authorise(identifier: string): { token: string; subject: Subject } | null {
    const params = parseObject(identifier);
    if (!params || params.channel !== 'RoomChannel') return null;
    const token = params.pubsub_token;
    if (typeof token !== 'string' || token === '') return null;
    const userId = params.user_id;
    if (userId === undefined || userId === null || userId === '') {
      const ci = this.store.contactInboxByPubsub(token);
      const contact = ci ? this.store.contacts.get(ci.contactId) : undefined;
      return contact
        ? { token, subject: { type: 'contact', contactId: contact.id, accountId: contact.accountId } }
        : null;
    }
    if (typeof userId !== 'number' && typeof userId !== 'string') return null;
    const agent = [...this.store.agents.values()].find(
      (a) => a.pubsubToken === token && String(a.id) === String(userId),
    );
    const accountId = Number(params.account_id);
    if (!agent || !agent.accountIds.includes(accountId)) return null;
    return { token, subject: { type: 'user', agentId: agent.id, accountId } };
  }

  private presenceKey(s: Subject): string {
    return s.type === 'user' ? `${s.accountId}:user:${s.agentId}` : `${s.accountId}:contact:${s.contactId}`;
  }

  private touchPresence(s: Subject): void {
    this.presence.set(this.presenceKey(s), Date.now());
  }

  private isPresent(key: string): boolean {
    const at = this.presence.get(key);
    return at !== undefined && Date.now() - at < this.opts.presenceTtlMs;
  }

  /** presence.update goes to the subscriber's own token: agents online; contacts only for agents. */
  private broadcastPresence(token: string, s: Subject): void {
    const users: Record<string, string> = {};
    for (const a of this.store.agents.values()) {
      if (a.accountIds.includes(s.accountId) && this.isPresent(`${s.accountId}:user:${a.id}`))
        users[String(a.id)] = a.availability;
    }
    const data: JsonObject = { account_id: s.accountId, users };
    if (s.type === 'user') {
      const contacts: Record<string, string> = {};
      for (const c of this.store.contacts.values()) {
        if (c.accountId === s.accountId && this.isPresent(`${s.accountId}:contact:${c.id}`))
          contacts[String(c.id)] = 'online';
      }
      data.contacts = contacts;
    }
    this.broadcast(new Set([token]), 'presence.update', data);
  }

  /** Turns a domain event into a broadcast now (payload frozen) and delivers it on the next turn. */
  dispatch(ev: DomainEvent): void {
    const conversation =
      'message' in ev ? this.store.conversations.get(ev.message.conversationId) : ev.conversation;
    if (!conversation) return;
    const agentTokens = this.store.inboxAudience(conversation.inboxId).map((a) => a.pubsubToken);
    const contactToken = this.store.contactInboxOf(conversation).pubsubToken;
    const tokens = new Set(agentTokens);
    let data: JsonObject;
    switch (ev.name) {
      case 'message.created':
      case 'message.updated':
        // A contact never receives private notes or activity lines.
        if (!ev.message.private && ev.message.messageType !== MESSAGE_TYPES.activity)
          tokens.add(contactToken);
        data = messagePush(this.store, ev.message, ev.name === 'message.created' ? ev.echoId : null);
        break;
      case 'conversation.created':
      case 'conversation.status_changed':
      case 'conversation.updated':
        tokens.add(contactToken);
        data = conversationPush(this.store, ev.conversation);
        break;
      case 'assignee.changed':
        data = conversationPush(this.store, ev.conversation);
        break;
      case 'conversation.typing_on':
      case 'conversation.typing_off': {
        tokens.add(contactToken);
        const u = ev.user;
        const agent = u.type === 'user' ? this.store.agents.get(u.id) : undefined;
        const contact = u.type === 'contact' ? this.store.contacts.get(u.id) : undefined;
        tokens.delete(agent ? agent.pubsubToken : contactToken); // the typer does not hear itself
        data = {
          conversation: conversationPush(this.store, ev.conversation),
          user: agent ? userPush(agent) : contact ? contactPush(contact) : null,
          is_private: ev.isPrivate,
        };
        break;
      }
    }
    this.broadcast(tokens, ev.name, { ...data, account_id: conversation.accountId });
  }

  private broadcast(tokens: Set<string>, event: string, data: JsonObject): void {
    const text = JSON.stringify({ event, data });
    setImmediate(() => {
      for (const conn of this.conns) {
        for (const sub of conn.subs.values()) {
          if (!tokens.has(sub.token) || conn.ws.readyState !== conn.ws.OPEN) continue;
          // Splice the identifier string in untouched; the message object is shared verbatim.
          conn.ws.send(`{"identifier":${JSON.stringify(sub.identifier)},"message":${text}}`);
        }
      }
    });
  }

  /** Sends Rails' disconnect frame to every client and closes the sockets (server restart drills). */
  disconnectAll(reconnect = true): void {
    for (const conn of this.conns) {
      this.send(conn, { type: 'disconnect', reason: 'server_restart', reconnect });
      conn.ws.close();
    }
  }

  close(): Promise<void> {
    clearInterval(this.pingTimer);
    for (const conn of this.conns) conn.ws.terminate();
    this.conns.clear();
    return new Promise((resolveClose) => this.wss.close(() => resolveClose()));
  }
}
