// Above the composer while replying (issue 40): the quoted message and a button that drops the reply.
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { plainSnippet } from '../../lib/snippet.ts';
import { sk } from '../../text/sk.ts';

export function ReplyPreview({ message, onRemove }: { message: LocalMessage; onRemove: () => void }) {
  return (
    <div data-testid="reply-preview" className="flex items-start gap-2 border-t border-slate-200 bg-white px-3 pt-2">
      <div className="min-w-0 flex-1 rounded-md border-l-4 border-teal-700 bg-slate-100 px-2 py-1 text-sm text-slate-800">
        <p className="text-xs font-semibold text-teal-800">{sk.chatActions.replyingTo}</p>
        <p className="line-clamp-2 whitespace-pre-line">{plainSnippet(message.text)}</p>
      </div>
      <button
        type="button"
        onClick={onRemove}
        aria-label={sk.chatActions.removeReply}
        title={sk.chatActions.removeReply}
        className="focus-ring inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-600 hover:bg-slate-100"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
    </div>
  );
}
