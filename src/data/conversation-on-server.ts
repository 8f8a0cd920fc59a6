// Whether the server lets this member see a conversation (RLS scopes conversations to their account).
// The chat asks it only when the local store, fully pulled, does not hold the id: a conversation
// just started may still be on its way (then it is on the server), while a mistyped, deleted or
// foreign id is not there either, and the member is told so at once (issue 37, item 6).
import { loadSupabase } from '../auth/lazy-supabase.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** true / false from the server; a rejection when it could not answer (network, 5xx). */
export async function conversationOnServer(id: string): Promise<boolean> {
  // Not an id at all: PostgREST would answer 400 (invalid uuid); no conversation has it.
  if (!UUID.test(id)) return false;
  const { data, error } = await (await loadSupabase()).supabase.from('conversations').select('id').eq('id', id).limit(1);
  if (error) throw new Error(error.message);
  return data.length > 0;
}
