// One specialist: name, role, 'AI ŠPECIALISTA' for AI, seniority, a two-line bio, skill chips, and
// 'Chatovať' (AI) or 'Požiadať o špecialistu' (human); 'Spúšťa sa konverzácia...' while busy.
import type { LocalSpecialist } from '../../../sync/model/local-types.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { sk } from '../../text/sk.ts';

interface SpecialistCardProps {
  specialist: LocalSpecialist;
  busy: boolean;
  disabled: boolean;
  onChoose: (specialist: LocalSpecialist) => void;
}

export function SpecialistCard({ specialist: s, busy, disabled, onChoose }: SpecialistCardProps) {
  return (
    <article data-testid="specialist" aria-labelledby={`specialist-${s.id}`} className="card flex flex-col gap-3 p-4">
      <div className="flex items-center gap-3">
        <Avatar name={s.name} src={s.avatarUrl} size="lg" />
        <div className="min-w-0">
          <h2 id={`specialist-${s.id}`} className="truncate font-semibold">
            {s.name}
          </h2>
          {s.role && <p className="truncate text-sm text-slate-600">{s.role}</p>}
        </div>
      </div>
      <div className="flex flex-wrap gap-1.5 text-xs font-semibold">
        {s.isAi && <span className="rounded-full bg-violet-100 px-2 py-0.5 text-violet-800">{sk.card.aiBadge}</span>}
        {s.seniority && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-700">{s.seniority}</span>}
      </div>
      {s.bio && <p className="line-clamp-2 text-sm text-slate-700">{s.bio}</p>}
      {s.skills.length > 0 && (
        <ul aria-label={sk.specialists.skills} className="flex flex-wrap gap-1.5">
          {s.skills.map((skill) => (
            <li key={skill} className="rounded-full border border-slate-200 px-2 py-0.5 text-xs text-slate-700">
              {skill}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className={s.isAi ? 'btn-primary mt-auto' : 'btn-secondary mt-auto'} disabled={disabled} onClick={() => onChoose(s)}>
        {busy ? sk.specialists.busy : s.isAi ? sk.specialists.chat : sk.specialists.request}
      </button>
    </article>
  );
}
