// /app/chats/{id} until the chat screen lands. The bars are hidden here, so it brings its own back link.
import { BackButton } from '../components/BackButton.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { sk } from '../text/sk.ts';

export function ChatPlaceholderPage() {
  useDocumentTitle(sk.titles.chat);
  return (
    <section className="flex flex-1 flex-col" data-placeholder="true">
      <div className="flex min-h-14 items-center gap-2 border-b border-slate-200 bg-white px-4 pt-[env(safe-area-inset-top)]">
        <BackButton to="/app/chats" />
        <h1 className="text-lg font-semibold">{sk.titles.chat}</h1>
      </div>
      <p className="p-4 text-slate-600">{sk.placeholder.chat}</p>
    </section>
  );
}
