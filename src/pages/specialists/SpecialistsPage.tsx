// /app/specialists: the account's specialists from the local store (1 column, 2 from sm up).
import { useState } from 'react';
import { reference, specialists } from '../../../sync/queries.ts';
import type { LocalSpecialist } from '../../../sync/model/local-types.ts';
import { useStartConversation } from '../../data/use-start-conversation.ts';
import { useSyncQuery } from '../../data/use-sync-query.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { sk } from '../../text/sk.ts';
import { SpecialistCard } from './SpecialistCard.tsx';
import { useRequestSpecialist } from './use-request-specialist.ts';

export const SKELETON_CARDS = 4;

export function SpecialistsPage() {
  useDocumentTitle(sk.specialists.title);
  const list = useSyncQuery((db) => specialists(db), [])?.value;
  const ref = useSyncQuery((db) => reference(db), [])?.value;
  const start = useStartConversation();
  const request = useRequestSpecialist();
  const [busyId, setBusyId] = useState<string | null>(null);
  const loadedOnce = (ref?.loadedAt ?? null) !== null;
  const error = ref?.error ?? null;
  const loading = list === undefined || (list.length === 0 && !loadedOnce && error === null);

  const choose = async (s: LocalSpecialist) => {
    setBusyId(s.id);
    const ok = s.isAi ? await start({ specialistId: s.id }) : await request(s.name);
    if (!ok) setBusyId(null);
  };

  return (
    <section className="flex flex-col gap-4 p-4">
      <div>
        <h1 className="text-xl font-semibold">{sk.specialists.title}</h1>
        <p className="text-slate-600">{sk.specialists.subtitle}</p>
      </div>
      {error !== null && list !== undefined && list.length === 0 && (
        <p role="alert" className="text-sm text-red-700">
          {sk.specialists.loadFailed(error || sk.specialists.fetchFailed)}
        </p>
      )}
      {loading ? (
        <div role="status" aria-busy="true" aria-label={sk.app.loading} className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {Array.from({ length: SKELETON_CARDS }, (_, i) => (
            <div key={i} data-testid="specialist-skeleton" className="card h-48 animate-pulse bg-slate-100 motion-reduce:animate-none" />
          ))}
        </div>
      ) : list.length === 0 ? (
        error === null && <p className="text-slate-600">{sk.specialists.empty}</p>
      ) : (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          {list.map((s) => (
            <SpecialistCard key={s.id} specialist={s} busy={busyId === s.id} disabled={busyId !== null} onChoose={(x) => void choose(x)} />
          ))}
        </div>
      )}
    </section>
  );
}
