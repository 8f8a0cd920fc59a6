// Starts the Chatwoot double on one HTTP port: the Application API, the client API, and the
// ActionCable endpoint at /cable, plus outgoing webhooks. Test-facing helpers (agentReply, resolve,
// setTyping, …) go through the same domain operations as REST, so they broadcast and fire webhooks
// exactly as a human agent acting in the Chatwoot dashboard would.
import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { Hono } from 'hono';
import { ChatwootActions, type NewMessage } from './actions.ts';
import { CableServer } from './cable.ts';
import { applicationApi } from './rest.ts';
import { clientApi } from './rest-public.ts';
import { seed } from './seed.ts';
import { messagePush } from './serialize.ts';
import { ChatwootStore } from './store.ts';
import {
  MESSAGE_TYPES,
  type AccountWebhook,
  type Agent,
  type Contact,
  type ContactInbox,
  type Conversation,
  type ConversationStatus,
  type Inbox,
  type JsonObject,
} from './types.ts';
import { WebhookDispatcher, type WebhookDelivery } from './webhooks.ts';

export interface ChatwootDoubleOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  pingIntervalMs?: number;
  presenceTtlMs?: number;
  /** Fix the admin's access token (by default random per start). */
  apiToken?: string;
  webhookTimeoutMs?: number;
}

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** The parsed JSON body, the raw text when it is not JSON, or null when empty. */
  body: unknown;
  status: number;
  hadToken: boolean;
}

export interface ReplyOptions {
  agentId?: number;
  private?: boolean;
  sourceId?: string;
  echoId?: string;
  contentType?: string;
  contentAttributes?: JsonObject;
  attachments?: NewMessage['attachments'];
}

export interface ChatwootDouble {
  url: string;
  cableUrl: string;
  accountId: number;
  /** The admin agent's api_access_token. */
  apiToken: string;
  admin: Agent;
  agents: Agent[];
  inboxes: Inbox[];
  store: ChatwootStore;
  actions: ChatwootActions;
  requests: LoggedRequest[];
  webhookDeliveries: WebhookDelivery[];
  addWebhook(url: string, events: string[], secret?: string): AccountWebhook;
  setInboxWebhook(inboxId: number, url: string | null, secret?: string): void;
  /** A contact with a contact_inbox in the inbox (what the client API's POST contacts makes). */
  createContact(
    inboxId: number,
    input?: { name?: string; email?: string; identifier?: string },
  ): { contact: Contact; contactInbox: ContactInbox };
  openConversation(
    contactInboxId: number,
    input?: { customAttributes?: JsonObject; status?: ConversationStatus },
  ): Conversation;
  /** A human agent answering from the dashboard: outgoing message, broadcast and webhooks. */
  agentReply(conversationDisplayId: number, content: string, opts?: ReplyOptions): JsonObject;
  /** The end user writing (an incoming message from the conversation's contact). */
  contactMessage(
    conversationDisplayId: number,
    content: string,
    opts?: { sourceId?: string; echoId?: string },
  ): JsonObject;
  setTyping(
    conversationDisplayId: number,
    on: boolean,
    opts?: { agentId?: number; isPrivate?: boolean },
  ): void;
  /** An agent opening the conversation in the dashboard (update_last_seen): sets agent_last_seen_at,
   *  sends no webhook and no socket event, as Chatwoot does. */
  agentOpens(conversationDisplayId: number, opts?: { agentId?: number }): void;
  resolve(conversationDisplayId: number, opts?: { agentId?: number }): void;
  setStatus(conversationDisplayId: number, status: ConversationStatus, opts?: { agentId?: number }): void;
  assign(conversationDisplayId: number, agentId: number | null, opts?: { agentId?: number }): void;
  /** Chatwoot answering slowly: requests matching `match` (all by default) are handled at once
   *  (messages are created, webhooks and socket events go out) but their reply is held back `ms`
   *  milliseconds, as a loaded Chatwoot would. 0 turns it off. */
  setReplyDelay(ms: number, match?: (method: string, path: string) => boolean): void;
  /** Resolves when every reply held back so far (setReplyDelay) has gone out and its request is in
   *  `requests` (a request is logged when its reply goes). */
  heldRepliesSent(): Promise<void>;
  /** Resolves when all webhook deliveries started so far have completed. */
  webhooksIdle(): Promise<void>;
  /** Sends Rails' disconnect frame to every socket and closes them. */
  disconnectSockets(reconnect?: boolean): void;
  /** Whether a cable subscription with this pubsub token is confirmed (the double sent
   *  confirm_subscription on an open socket): events for it from now on reach that subscriber. */
  cableSubscribed(pubsubToken: string): boolean;
  /** Chatwoot's side reset: every contact, conversation and message is gone (accounts, agents and
   *  inboxes stay), so links stored on our side point at nothing (404). */
  wipeConversations(): void;
  stop(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const addr = server.address();
      resolveListen(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

export async function startChatwootDouble(opts: ChatwootDoubleOptions = {}): Promise<ChatwootDouble> {
  const host = opts.host ?? '127.0.0.1';
  const store = new ChatwootStore();
  const world = seed(store, opts.apiToken !== undefined ? { apiToken: opts.apiToken } : {});
  const cable = new CableServer(store, {
    pingIntervalMs: opts.pingIntervalMs ?? 3000,
    presenceTtlMs: opts.presenceTtlMs ?? 20_000,
  });
  const webhooks = new WebhookDispatcher(store, opts.webhookTimeoutMs ?? 5000);
  // Payloads are frozen at emit time by both sinks; delivery happens later (setImmediate / fetch).
  const actions = new ChatwootActions(store, { emit: (ev) => (cable.dispatch(ev), webhooks.dispatch(ev)) });
  const requests: LoggedRequest[] = [];
  let replyDelay: { ms: number; match: (method: string, path: string) => boolean } | null = null;
  const heldReplies = new Set<Promise<void>>();

  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    const delay = replyDelay;
    let logged = (): void => undefined;
    if (delay && delay.match(c.req.method, c.req.path)) {
      const held = new Promise<void>((r) => (logged = r));
      heldReplies.add(held);
      void held.then(() => heldReplies.delete(held));
      await new Promise((r) => setTimeout(r, delay.ms));
    }
    const text = await c.req.text().catch(() => '');
    let body: unknown = null;
    if (text !== '') {
      try {
        body = JSON.parse(text) as unknown;
      } catch {
        body = text;
      }
    }
    const url = new URL(c.req.url);
    requests.push({
      method: c.req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body,
      status: c.res.status,
      hadToken: c.req.header('api_access_token') !== undefined,
    });
    logged();
  });
  app.route('/', applicationApi(store, actions));
  app.route('/', clientApi(store, actions));
  app.notFound((c) => c.json({ error: 'Resource could not be found' }, 404));

  const listener = getRequestListener(app.fetch);
  // The listener's promise never rejects (errors become 500 replies), so dropping it is safe.
  const server = createServer((req, res) => void listener(req, res));
  server.on('upgrade', (req, socket, head) => {
    if (!cable.handleUpgrade(req, socket, head))
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
  });
  const port = await listen(server, opts.port ?? 0, host);
  const origin = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const accountId = world.account.id;
  const conv = (displayId: number) => actions.conversation(accountId, displayId);
  const agentRef = (id: number | undefined) => ({ type: 'user', id: id ?? world.admin.id }) as const;

  return {
    url: `http://${origin}`,
    cableUrl: `ws://${origin}/cable`,
    accountId,
    apiToken: world.admin.accessToken,
    admin: world.admin,
    agents: world.agents,
    inboxes: world.inboxes,
    store,
    actions,
    requests,
    webhookDeliveries: webhooks.deliveries,
    setReplyDelay(ms, match = () => true) {
      replyDelay = ms > 0 ? { ms, match } : null;
    },
    async heldRepliesSent() {
      // A hold that began while waiting is waited for too (each leaves the set once its request is logged).
      while (heldReplies.size) await Promise.all([...heldReplies]);
    },
    addWebhook: (url, events, secret) => store.addWebhook(accountId, url, events, secret ?? null),
    setInboxWebhook(inboxId, url, secret) {
      const inbox = store.inboxes.get(inboxId);
      if (!inbox) throw new Error(`no inbox ${inboxId}`);
      inbox.webhookUrl = url;
      inbox.webhookSecret = secret ?? null;
    },
    createContact(inboxId, input = {}) {
      const inbox = store.inboxes.get(inboxId);
      if (!inbox) throw new Error(`no inbox ${inboxId}`);
      const contact = store.addContact({
        accountId: inbox.accountId,
        name: input.name ?? 'Používateľ',
        email: input.email ?? null,
        identifier: input.identifier ?? null,
      });
      return { contact, contactInbox: store.addContactInbox(contact.id, inbox.id) };
    },
    openConversation: (contactInboxId, input = {}) =>
      actions.openConversation({
        contactInboxId,
        ...(input.customAttributes ? { customAttributes: input.customAttributes } : {}),
        ...(input.status ? { status: input.status } : {}),
      }),
    agentReply(displayId, content, o = {}) {
      const message = actions.createMessage(conv(displayId), {
        content,
        messageType: MESSAGE_TYPES.outgoing,
        sender: agentRef(o.agentId),
        private: o.private ?? false,
        contentType: o.contentType ?? 'text',
        contentAttributes: o.contentAttributes ?? {},
        sourceId: o.sourceId ?? null,
        echoId: o.echoId ?? null,
        attachments: o.attachments ?? [],
      });
      return messagePush(store, message, o.echoId ?? null);
    },
    contactMessage(displayId, content, o = {}) {
      const c = conv(displayId);
      const message = actions.createMessage(c, {
        content,
        messageType: MESSAGE_TYPES.incoming,
        sender: { type: 'contact', id: c.contactId },
        sourceId: o.sourceId ?? null,
        echoId: o.echoId ?? null,
      });
      return messagePush(store, message, o.echoId ?? null);
    },
    setTyping: (displayId, on, o = {}) =>
      actions.typing(conv(displayId), on, agentRef(o.agentId), o.isPrivate ?? false),
    wipeConversations: () => {
      for (const m of [store.messages, store.conversations, store.contactInboxes, store.contacts]) m.clear();
    },
    agentOpens: (displayId, o = {}) => actions.agentViews(conv(displayId), agentRef(o.agentId).id),
    resolve: (displayId, o = {}) => actions.changeStatus(conv(displayId), 'resolved', agentRef(o.agentId)),
    setStatus: (displayId, status, o = {}) =>
      actions.changeStatus(conv(displayId), status, agentRef(o.agentId)),
    assign: (displayId, agentId, o = {}) =>
      void actions.assign(conv(displayId), agentId, agentRef(o.agentId)),
    webhooksIdle: () => webhooks.idle(),
    disconnectSockets: (reconnect = true) => cable.disconnectAll(reconnect),
    cableSubscribed: (pubsubToken) => cable.isSubscribed(pubsubToken),
    async stop() {
      await cable.close();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      });
    },
  };
}
