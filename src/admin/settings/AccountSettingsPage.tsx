// /admin/accounts/{id}/settings: plan card, account info, specialist management; 6 skeleton cards
// while loading; a not-found message with a way back.
import { Link, useParams } from 'react-router-dom';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { admin } from '../../text/admin.ts';
import { Columns, Span } from '../ui/Columns.tsx';
import { AccountInfoCard } from './AccountInfoCard.tsx';
import { PlanCard } from './PlanCard.tsx';
import { assignedCount } from './specialist-state.ts';
import { SpecialistsCard } from './SpecialistsCard.tsx';
import { useAccountSettings } from './use-account-settings.ts';

const SKELETON_CARDS = 6;

function SkeletonCards() {
  return (
    <div role="status" aria-busy="true" className="grid grid-cols-1 gap-2 sm:grid-cols-2">
      {Array.from({ length: SKELETON_CARDS }, (_, i) => (
        <div key={i} data-testid="settings-skeleton" className="h-20 animate-pulse rounded-lg bg-slate-200 motion-reduce:animate-none" />
      ))}
    </div>
  );
}

export function AccountSettingsPage() {
  const { id = '' } = useParams();
  const { state, saving, savePlan, setMode, toggleSpecialist } = useAccountSettings(id);
  useDocumentTitle(admin.settings.documentTitle);

  if (state.kind === 'loading') return <SkeletonCards />;
  if (state.kind === 'missing') {
    return (
      <div className="flex flex-col items-center gap-3 p-6 text-center">
        <p className="text-slate-700">{admin.settings.notFound}</p>
        <Link to="/admin/accounts" className="focus-ring rounded-lg bg-teal-700 px-3 py-2 text-sm font-medium text-white">
          {admin.settings.backToList}
        </Link>
      </div>
    );
  }
  const { account, plans, specialists, assignment } = state.data;
  return (
    <section className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold">{admin.settings.title(account.name)}</h2>
      <Columns>
        <PlanCard currentPlan={account.plan} plans={plans} assignedCount={assignedCount(assignment)} saving={saving} onSave={savePlan} />
        <AccountInfoCard account={account} />
        <Span>
          <SpecialistsCard
            specialists={specialists}
            assignment={assignment}
            saving={saving}
            onMode={(m) => void setMode(m)}
            onToggle={(sid) => void toggleSpecialist(sid)}
          />
        </Span>
      </Columns>
    </section>
  );
}
