// The right pane of the desktop two-pane layout while no conversation is open (issue 40): calm, with
// a hint where the chat will appear. Not a live region: nothing in it changes.
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { sk } from '../../text/sk.ts';

export function EmptyChatPane() {
  useDocumentTitle(sk.nav.chats);
  return (
    <div data-testid="empty-chat-pane" className="flex flex-1 flex-col items-center justify-center gap-2 bg-slate-100 p-8 text-center">
      <svg aria-hidden="true" viewBox="0 0 24 24" width="48" height="48" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round" className="text-slate-400">
        <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.4A8 8 0 1 1 21 12z" />
      </svg>
      <h2 className="text-lg font-semibold text-slate-800">{sk.layout.noChatOpen}</h2>
      <p className="max-w-sm text-sm text-slate-600">{sk.layout.noChatOpenHint}</p>
    </div>
  );
}
