// R11.7: the server is told which chat this tab shows while it is visible (push_viewing), so a reply
// to the chat the user is reading is not notified (the server's rule R10.x). Sent when a chat becomes
// visible, every 20 s while it stays visible, and null when it is hidden, closed or left.
import { loadSupabase } from '../auth/lazy-supabase.ts';

export const VIEWING_HEARTBEAT_MS = 20_000;

/** The conversation a pathname shows, or null. */
export function chatOfPath(pathname: string): string | null {
  const m = /^\/app\/chats\/([^/]+)\/?$/.exec(pathname);
  return m ? decodeURIComponent(m[1]!) : null;
}

export async function reportViewing(conversationId: string | null): Promise<void> {
  try {
    const { supabase } = await loadSupabase();
    const { error } = await supabase.rpc('push_viewing', { p_conversation_id: conversationId });
    if (error) console.warn('push_viewing:', error.message);
  } catch (err) {
    console.warn('push_viewing:', err); // offline: the server's viewing mark runs out by itself
  }
}

/**
 * Starts reporting for `conversationId` (null: no chat shown); answers the stop function, which
 * reports null. `report` is injectable for the unit test.
 */
export function watchViewing(
  conversationId: string | null,
  report: (id: string | null) => void = (id) => void reportViewing(id),
  doc: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'> = document,
): () => void {
  if (!conversationId) return () => undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let shown = false;
  const update = () => {
    const visible = doc.visibilityState === 'visible';
    if (visible && !shown) {
      shown = true;
      report(conversationId);
      timer = setInterval(() => report(conversationId), VIEWING_HEARTBEAT_MS);
    } else if (!visible && shown) {
      shown = false;
      clearInterval(timer);
      report(null);
    }
  };
  update();
  doc.addEventListener('visibilitychange', update);
  const onHide = () => {
    if (shown) report(null);
  };
  window.addEventListener('pagehide', onHide);
  return () => {
    doc.removeEventListener('visibilitychange', update);
    window.removeEventListener('pagehide', onHide);
    clearInterval(timer);
    if (shown) report(null);
  };
}
