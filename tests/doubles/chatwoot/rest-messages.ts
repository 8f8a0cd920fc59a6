// Application API message routes: list (MessageFinder paging), create (echo_id echoed, incoming
// only in API inboxes, flood limit as Chatwoot's 422), status update (API inboxes only, 403
// otherwise) and delete (content replaced, content_attributes.deleted, message.updated broadcast).
// Create also takes Chatwoot's multipart form (a message with files): the same fields as form fields
// and each file as `attachments[]` (Messages::MessageBuilder#process_attachments); each becomes an
// attachment whose file_type follows its content type (image/audio/video, else file, as Chatwoot's
// Attachment#file_type) and whose data_url serves the bytes (ActiveStorage's blob redirect path).
import { randomUUID } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { FloodError, type ChatwootActions } from './actions.ts';
import { bool, int, obj, readBody, str } from './http.ts';
import type { Ctx, Env } from './rest.ts';
import { agentJson, contactPush, messagePush, seenSecs } from './serialize.ts';
import type { ChatwootStore } from './store.ts';
import {
  MESSAGE_TYPES,
  notFound,
  unprocessable,
  type Conversation,
  type MessageTypeCode,
  type MessageTypeName,
} from './types.ts';

interface Deps {
  store: ChatwootStore;
  actions: ChatwootActions;
  conversationOf: (c: Ctx) => Conversation;
  actor: (c: Ctx) => { readonly type: 'user'; readonly id: number };
  base: string;
}

function parseMessageType(v: unknown): MessageTypeCode {
  if (v === undefined || v === null || v === '') return MESSAGE_TYPES.outgoing;
  if (typeof v === 'string' && Object.hasOwn(MESSAGE_TYPES, v)) return MESSAGE_TYPES[v as MessageTypeName];
  const n = int(v);
  if (n !== null && Object.values(MESSAGE_TYPES).some((code) => code === n)) return n as MessageTypeCode;
  throw unprocessable(`'${typeof v === 'string' ? v : JSON.stringify(v)}' is not a valid message_type`);
}

/** A multipart create: its fields (as a JSON body would carry them) and its attachments[] files. */
async function readForm(c: Context): Promise<{ body: Record<string, unknown>; files: { bytes: Uint8Array; type: string; name: string }[] }> {
  const form = await c.req.formData();
  const body: Record<string, unknown> = {};
  const files: { bytes: Uint8Array; type: string; name: string }[] = [];
  for (const [k, v] of form.entries()) {
    if (k === 'attachments[]' && typeof v !== 'string') files.push({ bytes: new Uint8Array(await v.arrayBuffer()), type: v.type, name: v.name });
    else if (typeof v === 'string') body[k] = v;
  }
  return { body, files };
}

export function messageRoutes(app: Hono<Env>, { store, actions, conversationOf, actor, base }: Deps): void {
  app.get(`${base}/conversations/:id/messages`, (c) => {
    const conversation = conversationOf(c);
    const all = store.messagesOf(conversation.id);
    const before = int(c.req.query('before'));
    const after = int(c.req.query('after'));
    // Chatwoot's MessageFinder: 20 before a cursor, up to 100 after one, else the latest 20.
    const page =
      before !== null
        ? all.filter((m) => m.id < before).slice(-20)
        : after !== null
          ? all.filter((m) => m.id > after).slice(0, 100)
          : all.slice(-20);
    const contact = store.contacts.get(conversation.contactId);
    const assignee = conversation.assigneeId === null ? undefined : store.agents.get(conversation.assigneeId);
    const meta = {
      labels: conversation.labels,
      additional_attributes: conversation.additionalAttributes,
      contact: contact ? contactPush(contact) : null,
      assignee: assignee ? agentJson(assignee, conversation.accountId) : null,
      agent_last_seen_at: seenSecs(conversation.agentLastSeenAtMs),
      assignee_last_seen_at: seenSecs(conversation.assigneeLastSeenAtMs),
    };
    return c.json({ meta, payload: page.map((m) => messagePush(store, m)) });
  });

  app.get('/rails/active_storage/blobs/redirect/:key/:name', (c) => {
    const file = store.files.get(c.req.param('key'));
    if (!file) return c.json({ error: 'Resource could not be found' }, 404);
    return new Response(file.bytes.slice().buffer, { headers: { 'content-type': file.type, 'content-length': String(file.bytes.length) } });
  });

  app.post(`${base}/conversations/:id/messages`, async (c) => {
    const conversation = conversationOf(c);
    const multipart = (c.req.header('content-type') ?? '').startsWith('multipart/form-data');
    const { body, files } = multipart ? await readForm(c) : { body: await readBody(c), files: [] };
    const messageType = parseMessageType(body.message_type);
    const inbox = store.inboxes.get(conversation.inboxId);
    if (messageType === MESSAGE_TYPES.incoming && inbox?.channelType !== 'Channel::Api') {
      throw unprocessable('Incoming messages are only allowed in Api inboxes');
    }
    const echoId = str(body.echo_id);
    try {
      const message = actions.createMessage(conversation, {
        content: str(body.content),
        messageType,
        // Chatwoot attributes incoming messages to the conversation's contact, the rest to the caller.
        sender:
          messageType === MESSAGE_TYPES.incoming ? { type: 'contact', id: conversation.contactId } : actor(c),
        private: bool(body.private),
        contentType: str(body.content_type) ?? 'text',
        contentAttributes: obj(body.content_attributes) ?? {},
        sourceId: str(body.source_id),
        echoId,
        attachments: files.map((f) => {
          const key = randomUUID();
          store.files.set(key, f);
          const dataUrl = `${new URL(c.req.url).origin}/rails/active_storage/blobs/redirect/${key}/${encodeURIComponent(f.name)}`;
          const fileType = (['image', 'audio', 'video'] as const).find((t) => f.type.startsWith(`${t}/`)) ?? 'file';
          return { fileType, dataUrl, thumbUrl: fileType === 'image' ? dataUrl : '', fileSize: f.bytes.length, width: null, height: null };
        }),
      });
      return c.json(messagePush(store, message, echoId));
    } catch (err) {
      // The controller rescues the model's RecordInvalid as {error} 422.
      if (err instanceof FloodError) throw unprocessable(`Validation failed: ${err.message}`);
      throw err;
    }
  });

  const messageOf = (c: Ctx, conversation: Conversation) => {
    const m = store.messages.get(int(c.req.param('messageId')) ?? -1);
    if (!m || m.conversationId !== conversation.id) throw notFound();
    return m;
  };

  app.patch(`${base}/conversations/:id/messages/:messageId`, async (c) => {
    const conversation = conversationOf(c);
    if (store.inboxes.get(conversation.inboxId)?.channelType !== 'Channel::Api') {
      return c.json({ error: 'Message status update is only allowed for API inboxes' }, 403);
    }
    const message = messageOf(c, conversation);
    const status = str((await readBody(c)).status);
    if (status !== 'sent' && status !== 'delivered' && status !== 'read' && status !== 'failed')
      throw unprocessable(`'${status}' is not a valid status`);
    return c.json(messagePush(store, actions.updateMessage(message, { status })));
  });

  app.delete(`${base}/conversations/:id/messages/:messageId`, (c) => {
    const conversation = conversationOf(c);
    const message = messageOf(c, conversation);
    message.attachments = [];
    return c.json(
      messagePush(
        store,
        actions.updateMessage(message, {
          content: 'This message was deleted',
          contentAttributes: { deleted: true },
        }),
      ),
    );
  });
}
