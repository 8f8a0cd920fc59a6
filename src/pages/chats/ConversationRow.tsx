// One conversation in the list: avatar, name, status, time, unread badge and a two-line snippet,
// linking to the chat; swiping or dragging left reveals 'Archivovať' ('Obnoviť' when archived).
import { Link } from 'react-router-dom';
import type { FilesSummary, LocalConversation } from '../../../sync/model/local-types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { SwipeableRow } from '../../components/SwipeableRow.tsx';
import { UnreadBadge } from '../../components/UnreadBadge.tsx';
import { formatRelativeTime } from '../../lib/relative-time.ts';
import { plainSnippet } from '../../lib/snippet.ts';
import { skShell as sk } from '../../text/sk-shell.ts';
import { filesSnippet } from './files-snippet.ts';
import { OwnerRowLabel } from './OwnerRowLabel.tsx';

interface ConversationRowProps {
  conversation: LocalConversation;
  archived: boolean;
  onToggleArchive: (conversationId: string) => void;
  /** The list's first row: its name carries the Element Timing identifier 'first-row' (bench row 1). */
  first?: boolean;
  /** The conversation's unsent draft (issue 40): shown instead of the last message, after 'Koncept:'. */
  draft?: string | undefined;
  /** R16.5: the files kept in this conversation's tray; named after 'Koncept:' when the draft has no text. */
  draftFiles?: FilesSummary | undefined;
  /** Issue 40: this conversation is open beside the list (desktop two-pane): aria-current="page". */
  open?: boolean;
  /** Issue 40: the list's search kept in the chat's address (list-params.ts keptListQuery), or ''. */
  query?: string;
}

/** Element Timing reports text painted in an element with this attribute (bench/README.md). */
const FIRST_ROW_TIMING: Record<string, string> = { elementtiming: 'first-row' };

export function ConversationRow({ conversation: c, archived, onToggleArchive, first = false, draft, draftFiles, open = false, query = '' }: ConversationRowProps) {
  const name = c.specialist?.name?.trim() || sk.chats.unknownSpecialist;
  const time = c.lastMessage?.createdAt ?? c.lastMessageAt ?? c.createdAt;
  const draftSnippet = (draft ? plainSnippet(draft) : '') || filesSnippet(draftFiles);
  // R2.10: a message of files without text names them; 'No messages yet' is for a conversation with none.
  const snippet = plainSnippet(c.lastMessage?.text ?? '') || filesSnippet(c.lastMessage?.files) || sk.chats.noMessages;
  return (
    <SwipeableRow actionLabel={archived ? sk.chats.restore : sk.chats.archive} onAction={() => onToggleArchive(c.id)}>
      <Link
        to={`/app/chats/${encodeURIComponent(c.id)}${query ? `?${query}` : ''}`}
        aria-current={open ? 'page' : undefined}
        draggable={false}
        data-testid="conversation-row"
        className="focus-ring flex select-none gap-3 border-b border-slate-100 px-4 py-3 focus-visible:ring-inset focus-visible:ring-offset-0 aria-[current=page]:bg-teal-50"
      >
        <Avatar name={name} src={c.specialist?.avatarUrl} size="lg" />
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate font-semibold text-slate-900" {...(first ? FIRST_ROW_TIMING : undefined)}>
              {name}
            </span>
            <time dateTime={time} className="shrink-0 text-xs text-slate-500">
              {formatRelativeTime(time)}
            </time>
          </span>
          <span className="flex items-start gap-2">
            <span className={`line-clamp-2 min-w-0 flex-1 whitespace-pre-line text-sm ${c.unreadCount > 0 ? 'font-medium text-slate-800' : 'text-slate-600'}`} data-testid="row-snippet">
              {draftSnippet ? (
                <>
                  <span className="font-semibold text-red-700">{sk.chatActions.draft}</span> {draftSnippet}
                </>
              ) : (
                snippet
              )}
            </span>
            <span className="flex shrink-0 flex-col items-end gap-1">
              <UnreadBadge count={c.unreadCount} />
            </span>
          </span>
          <span className="flex items-center gap-2">
            <StatusBadge status={c.status} />
            <OwnerRowLabel conversation={c} />
          </span>
        </span>
      </Link>
    </SwipeableRow>
  );
}
