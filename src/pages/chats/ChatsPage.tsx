import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { skShell as sk } from '../../text/sk-shell.ts';
import { ConversationsScreen } from './ConversationsScreen.tsx';

/** /app/chats. The first conversation of an empty account is made by the engine after its first pull (sync R5.6). */
export function ChatsPage() {
  useDocumentTitle(sk.nav.chats);
  return <ConversationsScreen archived={false} />;
}
