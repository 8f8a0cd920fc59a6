// R14.2 / R14.7: asks the server to hand the conversation to a human (Edge Function request-human:
// the RPC request_human as the caller, then the conversation opened in Chatwoot for the agents when
// none is linked yet). Online only: the request changes who answers, so the user is told at once
// whether it reached the server (offline it did not, and the button stays for a later try). The new
// state reaches every device through the change feed; syncNow() brings it to this one without
// waiting for the realtime event.
import { loadSupabase } from '../../auth/lazy-supabase.ts';

export type RequestHumanOutcome = 'requested' | 'offline' | 'failed';

export async function requestHuman(conversationId: string, online: boolean): Promise<RequestHumanOutcome> {
  if (!online) return 'offline';
  try {
    const { supabase } = await loadSupabase();
    const res: { error: Error | null } = await supabase.functions.invoke('request-human', { method: 'POST', body: { conversation_id: conversationId } });
    const error = res.error;
    if (error) {
      console.warn('request-human:', error.message);
      // The request never reached the server (fetch failed): the user may try again once online.
      // (by name: supabase-js is loaded lazily, its classes are not imported here).
      return error.name === 'FunctionsFetchError' ? 'offline' : 'failed';
    }
    return 'requested';
  } catch (err) {
    console.warn('request-human:', err);
    return 'offline';
  }
}
