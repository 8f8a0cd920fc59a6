import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { skShell as sk } from '../../text/sk-shell.ts';
import { ConversationsScreen } from './ConversationsScreen.tsx';

/** /app/archived: the header shows 'Archivované' with a back button. */
export function ArchivedPage() {
  useDocumentTitle(sk.titles.archived);
  return <ConversationsScreen archived />;
}
