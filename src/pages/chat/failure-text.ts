// What a failed message says under its bubble (issue 37, item 11): the engine's own texts (Slovak,
// or the spec's 'Failed to send message') as they are; a server refusal the product knows, in
// Slovak; any other raw server or network message ('bad request from test', a PostgreSQL error) is
// never shown to the member: it becomes the Slovak 'could not send' text (it stays in the console).
import { TEXT_CONVERSATION_COMPLETED, TEXT_CONVERSATION_GONE, TEXT_NEEDS_SIGN_IN, TEXT_SEND_FAILED } from '../../../sync/model/texts.ts';
import { sk } from '../../text/sk.ts';

const ENGINE_TEXTS = new Set<string>([TEXT_CONVERSATION_COMPLETED, TEXT_CONVERSATION_GONE, TEXT_NEEDS_SIGN_IN, TEXT_SEND_FAILED]);

/** Server messages (supabase/migrations) with a text of their own. */
const KNOWN: Record<string, string> = {
  'Message is too long': sk.chat.tooLong,
  'Conversation not found': TEXT_CONVERSATION_GONE,
  'Conversation is completed': TEXT_CONVERSATION_COMPLETED,
};

export function failureText(error: string | null | undefined): string {
  if (!error) return TEXT_SEND_FAILED;
  if (ENGINE_TEXTS.has(error)) return error;
  // The length refusal names its limit after a colon ('Message is too long: at most 8000 characters').
  return KNOWN[error] ?? KNOWN[error.split(':')[0]!] ?? sk.chat.sendRefused;
}
