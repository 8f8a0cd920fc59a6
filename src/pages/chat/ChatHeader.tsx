// The chat's own top bar (the layout hides the app header here): back to the list, avatar, name and
// role ('Neznámy špecialista' when the conversation has no named specialist), the status, who answers
// and 'Chcem hovoriť s človekom' (issue 39, OwnerControls.tsx). With no
// conversation on the device, `absentTitle` stands instead (loading, or why it is not there).
import type { LocalConversation } from '../../../sync/model/local-types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { BackButton } from '../../components/BackButton.tsx';
import { sk } from '../../text/sk.ts';
import { OwnerStatus, RequestHumanButton } from './OwnerControls.tsx';
import type { Presence } from './presence.ts';

const PRESENCE_TEXT: Record<Presence, string> = { online: sk.chat.online, busy: sk.chat.busy, locked: sk.chat.locked };
const PRESENCE_DOT: Record<Presence, string> = { online: 'bg-emerald-500', busy: 'bg-amber-500', locked: 'bg-slate-400' };

interface ChatHeaderProps {
  conversation: LocalConversation | undefined;
  presence: Presence | null;
  absentTitle: string;
  /** Issue 40: opens the search inside this chat (ChatSearch.tsx); no button without it. */
  onSearch?: (() => void) | undefined;
}

export function ChatHeader({ conversation, presence, absentTitle, onSearch }: ChatHeaderProps) {
  const name = conversation ? conversation.specialist?.name?.trim() || sk.chats.unknownSpecialist : absentTitle;
  const role = conversation?.specialist?.role;
  return (
    <>
    <header data-testid="chat-header" className="flex min-h-14 items-center gap-2 border-b border-slate-200 bg-white px-4 pt-[env(safe-area-inset-top)]">
      <BackButton to="/app/chats" />
      <Avatar name={name} src={conversation?.specialist?.avatarUrl} fallbackSrc="/favicon.svg" size="md" />
      <div className="min-w-0 flex-1">
        <h1 className="truncate text-base font-semibold leading-tight">{name}</h1>
        <p className="flex items-center gap-1.5 truncate text-xs text-slate-600">
          {role && <span className="truncate">{role}</span>}
          {role && presence && <span aria-hidden="true">·</span>}
          {presence && (
            <span data-testid="chat-presence" className="inline-flex items-center gap-1">
              <span aria-hidden="true" className={`h-2 w-2 rounded-full ${PRESENCE_DOT[presence]}`} />
              {PRESENCE_TEXT[presence]}
            </span>
          )}
        </p>
        {conversation && (
          <p className="truncate text-xs text-slate-600">
            <OwnerStatus conversation={conversation} />
          </p>
        )}
      </div>
      {onSearch && (
        <button type="button" aria-label={sk.chatSearch.open} title={sk.chatSearch.open} onClick={onSearch} className="focus-ring inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100">
          <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <circle cx="11" cy="11" r="7" />
            <path d="M20 20l-3.5-3.5" />
          </svg>
        </button>
      )}
      <RequestHumanButton conversation={conversation} placement="header" />
    </header>
    <RequestHumanButton conversation={conversation} placement="bar" />
    </>
  );
}
