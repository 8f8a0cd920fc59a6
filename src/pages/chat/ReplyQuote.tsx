// The compact quote at the top of a reply's bubble (issue 40): who wrote the quoted message and its
// first line; a click scrolls to it and highlights it. A quote of a message this device has not
// loaded says so and does nothing.
import { plainSnippet } from '../../lib/snippet.ts';
import { sk } from '../../text/sk.ts';
import { useListLinks } from './list-links.ts';
import { isOwn } from './message-kinds.ts';

export function ReplyQuote({ id, own }: { id: string; own: boolean }) {
  const links = useListLinks();
  const quoted = links?.byServerId(id);
  const tone = own ? 'border-white bg-teal-900/50 text-white' : 'border-teal-700 bg-white text-slate-800';
  if (!quoted) {
    return <p className={`mb-1 rounded-md border-l-4 px-2 py-1 text-sm italic ${tone}`}>{sk.chatActions.quoteMissing}</p>;
  }
  const who = isOwn(quoted) ? sk.chat.you : (links?.peerName ?? '');
  return (
    <button
      type="button"
      data-testid="reply-quote"
      onClick={() => links?.jumpTo(id)}
      className={`focus-ring mb-1 block w-full min-w-0 rounded-md border-l-4 px-2 py-1 text-left text-sm ${tone}`}
    >
      <span className="block text-xs font-semibold">{sk.chatActions.quoteOf(who)}</span>
      <span className="line-clamp-2 block whitespace-pre-line">{plainSnippet(quoted.text)}</span>
    </button>
  );
}
