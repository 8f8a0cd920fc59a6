// The state of a streamed AI reply as its row's payload carries it (sync/SPEC.md R13): written by
// the server's worker only, synced like any column.
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { loadSupabase } from '../../auth/lazy-supabase.ts';

export type AiReplyState = 'streaming' | 'interrupted' | 'stopped' | null;

export function aiReplyState(m: Pick<LocalMessage, 'payload' | 'direction'>): AiReplyState {
  const p = m.payload;
  if (!p || m.direction === 'user') return null;
  if (p.streaming === true) return 'streaming';
  if (p.interrupted === true) return 'interrupted';
  if (p.stopped === true) return 'stopped';
  return null;
}

/** stop_ai_reply / retry_ai_reply for the reply's server row; answers an error message or null. */
export async function aiReplyCommand(fn: 'stop_ai_reply' | 'retry_ai_reply', messageId: string): Promise<string | null> {
  try {
    const { supabase } = await loadSupabase();
    const args = { p_message_id: messageId };
    const { error } = fn === 'stop_ai_reply' ? await supabase.rpc('stop_ai_reply', args) : await supabase.rpc('retry_ai_reply', args);
    return error ? error.message : null;
  } catch (err) {
    return (err as Error).message;
  }
}
