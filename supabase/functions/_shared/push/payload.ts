// What a notification says (issue 20 contract with the service worker, sw/): the JSON payload a
// push carries, encrypted by web-push (RFC 8291 aes128gcm). Pure functions, shared by the local push
// worker and the hosted push-dispatch function.

export interface MessagePushPayload {
  type: 'message';
  conversationId: string;
  messageId: string;
  /** The specialist's name. */
  title: string;
  /** The message as plain text: markdown stripped, at most BODY_MAX characters. */
  body: string;
  icon: string | null;
  /** One notification per conversation: a burst collapses into the newest (R10.5). */
  tag: string;
  url: string;
  /** The user's total unread (the badge). */
  unread: number;
}

export const BODY_MAX = 140;
/** Shown when a message has no text (an attachment only). */
export const NO_TEXT_BODY = 'Nová správa';

/** Markdown (as the chat renders it) to one line of plain text. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n?([\s\S]*?)```/g, '$1') // fenced code: keep the code
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images: alt text
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1') // links: their text
    .replace(/<[^>]+>/g, '') // inline HTML tags
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+[.)]\s+)/gm, '') // headings, quotes, list markers
    .replace(/(\*\*|__|~~)(.+?)\1/g, '$2') // bold, strike
    .replace(/(^|[^\w*])[*_](?!\s)(.+?)[*_](?=$|[^\w*])/g, '$1$2') // emphasis
    .replace(/`([^`]*)`/g, '$1') // inline code
    .replace(/\s+/g, ' ')
    .trim();
}

export function truncate(text: string, max = BODY_MAX): string {
  const chars = Array.from(text); // never split a surrogate pair (emoji)
  if (chars.length <= max) return text;
  return chars.slice(0, max - 1).join('').trimEnd() + '…';
}

export interface ClaimedNotification {
  id: string;
  attempts: number;
  message_id: string;
  conversation_id: string;
  direction: string;
  type: string;
  text: string | null;
  title: string;
  icon: string | null;
  unread: number;
  subscriptions: { id: string; endpoint: string; p256dh: string; auth: string }[];
}

export function messagePayload(n: ClaimedNotification): MessagePushPayload {
  const body = truncate(plainText(n.text ?? ''));
  return {
    type: 'message',
    conversationId: n.conversation_id,
    messageId: n.message_id,
    title: n.title,
    body: body === '' ? NO_TEXT_BODY : body,
    icon: n.icon,
    tag: `conversation:${n.conversation_id}`,
    url: `/app/chats/${n.conversation_id}`,
    unread: n.unread,
  };
}

/** RFC 8030 Topic: at most 32 base64url characters; the conversation id without dashes is exactly 32,
 *  so a newer message of the same chat replaces an undelivered older one at the push service. */
export function topicFor(conversationId: string): string {
  return conversationId.replace(/-/g, '').slice(0, 32);
}
