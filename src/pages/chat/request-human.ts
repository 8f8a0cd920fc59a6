// R14.2: asks the server to hand the conversation to a human (RPC request_human). Online only: the
// request changes who answers, so the user is told at once whether it reached the server (offline it
// did not, and the button stays for a later try). The new state reaches every device through the
// change feed; syncNow() brings it to this one without waiting for the realtime event.
import { loadSupabase } from '../../auth/lazy-supabase.ts';

export type RequestHumanOutcome = 'requested' | 'offline' | 'failed';

export async function requestHuman(conversationId: string, online: boolean): Promise<RequestHumanOutcome> {
  if (!online) return 'offline';
  try {
    const { supabase } = await loadSupabase();
    const { error } = await supabase.rpc('request_human', { p_conversation_id: conversationId });
    if (error) {
      console.warn('request_human:', error.message);
      return 'failed';
    }
    return 'requested';
  } catch (err) {
    console.warn('request_human:', err);
    return 'offline'; // the request never reached the server (fetch failed)
  }
}
