// Specialist management: assigned count, mode badge and switch, per-mode note, debounced search (250
// ms) over name, role and seniority, and the card grid (disabled in Default mode). Switching Default
// off asks first, saying how many specialists stay assigned (issue 21 admin item 8); Cancel changes
// nothing. Switching it on needs no question: it only restores the plan's specialists.
import { useMemo, useState } from 'react';
import { admin } from '../../text/admin.ts';
import { useDebounced } from '../lib/use-debounced.ts';
import { Badge } from '../ui/Badge.tsx';
import { Card } from '../ui/Card.tsx';
import { ConfirmDialog } from '../ui/ConfirmDialog.tsx';
import { Switch } from '../ui/Switch.tsx';
import { SearchField } from '../ui/TextField.tsx';
import { SpecialistCard } from './SpecialistCard.tsx';
import { assignedCount, filterSpecialists, isAssigned, keptOnCustom, type Assignment, type SpecialistRow, type SpecialistsMode } from './specialist-state.ts';

export const SPECIALIST_SEARCH_DEBOUNCE_MS = 250;

interface SpecialistsCardProps {
  specialists: SpecialistRow[];
  assignment: Assignment;
  saving: boolean;
  onMode: (mode: SpecialistsMode) => void;
  onToggle: (id: string) => void;
}

export function SpecialistsCard({ specialists, assignment, saving, onMode, onToggle }: SpecialistsCardProps) {
  const [query, setQuery] = useState('');
  const settled = useDebounced(query, SPECIALIST_SEARCH_DEBOUNCE_MS);
  const shown = useMemo(() => filterSpecialists(specialists, settled), [specialists, settled]);
  const isDefault = assignment.mode === 'DEFAULT';
  const [confirming, setConfirming] = useState(false);
  const onSwitch = (on: boolean) => {
    if (on) onMode('DEFAULT');
    else setConfirming(true);
  };
  return (
    <Card
      testId="specialists-card"
      title={admin.settings.specialists}
      actions={
        <>
          <Badge tone="teal" testId="assigned-count">
            {assignedCount(assignment)}
          </Badge>
          <Badge tone={isDefault ? 'teal' : 'violet'} testId="mode-badge">
            {isDefault ? admin.settings.modeDefault : admin.settings.modeCustom}
          </Badge>
        </>
      }
    >
      <Switch checked={isDefault} disabled={saving} label={admin.settings.switchLabel} onChange={onSwitch} />
      {confirming && (
        <ConfirmDialog
          title={admin.settings.confirmCustomTitle}
          confirmLabel={admin.settings.confirmCustomOk}
          cancelLabel={admin.settings.confirmCancel}
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            onMode('CUSTOM');
          }}
        >
          <p>{admin.settings.confirmCustomText(assignedCount(assignment))}</p>
          <p className="mt-2 font-semibold">
            {admin.settings.confirmCustomKeeps}: <span data-testid="confirm-kept">{keptOnCustom(assignment)}</span>
          </p>
        </ConfirmDialog>
      )}
      <p className="text-sm text-slate-600" data-testid="mode-note">
        {isDefault ? admin.settings.noteDefault : admin.settings.noteCustom}
      </p>
      <SearchField label={admin.settings.search} value={query} onChange={setQuery} />
      {specialists.length === 0 ? (
        <p className="p-4 text-center text-slate-600">{admin.settings.noSpecialists}</p>
      ) : shown.length === 0 ? (
        <p className="p-4 text-center text-slate-600">{admin.settings.noSpecialistMatch}</p>
      ) : (
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((s) => (
            <SpecialistCard
              key={s.id}
              specialist={s}
              assigned={isAssigned(assignment, s.id)}
              mode={assignment.mode}
              disabled={isDefault || saving}
              onToggle={() => onToggle(s.id)}
            />
          ))}
        </div>
      )}
    </Card>
  );
}
