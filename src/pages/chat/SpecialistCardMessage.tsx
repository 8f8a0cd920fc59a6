// A specialist card in the chat: name, role, 'AI ŠPECIALISTA', seniority, credits, bio, up to 4
// skills and 'Aktivovať špecialistu' ('Aktivujem...' while the server starts the conversation).
import { useState } from 'react';
import { specialists } from '../../../sync/queries.ts';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { useStartConversation } from '../../data/use-start-conversation.ts';
import { useSyncQuery } from '../../data/use-sync-query.ts';
import { sk } from '../../text/sk.ts';
import { cardInfo } from './message-kinds.ts';

export const CARD_MAX_SKILLS = 4;

export function SpecialistCardMessage({ message }: { message: LocalMessage }) {
  const info = cardInfo(message.payload);
  const list = useSyncQuery((db) => specialists(db), []);
  const start = useStartConversation();
  const [busy, setBusy] = useState(false);
  if (!info) return null;
  const s = list?.value.find((x) => x.id === info.specialistId);
  const name = s?.name ?? (message.text.trim() || sk.chats.unknownSpecialist);
  const activate = async () => {
    setBusy(true);
    const ok = await start({ specialistId: info.specialistId, cardId: message.serverId, welcomeText: info.welcomeText });
    if (!ok) setBusy(false);
  };
  return (
    <article data-testid="specialist-card" className="flex w-full flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-3 text-slate-900 shadow-sm">
      <div className="flex items-center gap-3">
        <Avatar name={name} src={s?.avatarUrl} size="lg" />
        <div className="min-w-0">
          <p className="font-semibold">{name}</p>
          {s?.role && <p className="text-sm text-slate-600">{s.role}</p>}
        </div>
      </div>
      <div className="flex flex-wrap gap-1.5 text-xs font-semibold">
        {s?.isAi !== false && <span className="rounded-full bg-violet-100 px-2 py-0.5 text-violet-800">{sk.card.aiBadge}</span>}
        {s?.seniority && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-700">{s.seniority}</span>}
        {info.credits !== null && <span className="rounded-full bg-amber-100 px-2 py-0.5 text-amber-900">{sk.card.credits(info.credits)}</span>}
      </div>
      {s?.bio && <p className="text-sm text-slate-700">{s.bio}</p>}
      {s && s.skills.length > 0 && (
        <ul aria-label={sk.specialists.skills} className="flex flex-wrap gap-1.5">
          {s.skills.slice(0, CARD_MAX_SKILLS).map((skill) => (
            <li key={skill} className="rounded-full border border-slate-200 px-2 py-0.5 text-xs text-slate-700">
              {skill}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn-primary" disabled={busy} onClick={() => void activate()}>
        {busy ? sk.card.activating : sk.card.activate}
      </button>
    </article>
  );
}
