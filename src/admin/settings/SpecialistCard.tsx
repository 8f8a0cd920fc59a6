import { Avatar } from '../../components/Avatar.tsx';
import { admin } from '../../text/admin.ts';
import { Badge } from '../ui/Badge.tsx';
import type { SpecialistRow, SpecialistsMode } from './specialist-state.ts';

interface SpecialistCardProps {
  specialist: SpecialistRow;
  assigned: boolean;
  mode: SpecialistsMode;
  disabled: boolean;
  onToggle: () => void;
}

/**
 * One specialist: checkbox, avatar, name, role and the AI / seniority / Default|Custom badges.
 * Read-only (Default mode) is shown by the disabled checkbox, a grey surface and the cursor, never
 * by fading the text (issue 37 admin 4: at 60 % opacity the role read at about 2.6:1).
 */
export function SpecialistCard({ specialist, assigned, mode, disabled, onToggle }: SpecialistCardProps) {
  return (
    <label
      data-testid="specialist-card"
      data-specialist-id={specialist.id}
      data-assigned={assigned}
      className={`flex items-start gap-3 rounded-lg border p-3 ${assigned ? 'border-teal-300 bg-teal-50/50' : 'border-slate-200'} ${
        disabled ? `cursor-not-allowed ${assigned ? '' : 'bg-slate-50'}` : 'cursor-pointer hover:bg-slate-50'
      }`}
    >
      <input
        type="checkbox"
        checked={assigned}
        disabled={disabled}
        onChange={onToggle}
        aria-label={specialist.name}
        className="mt-1 h-4 w-4 accent-teal-700"
      />
      <Avatar name={specialist.name} src={specialist.avatar_url} size="md" />
      <span className="flex min-w-0 flex-col gap-1">
        <span className="font-medium">{specialist.name}</span>
        {specialist.role && <span className="text-xs text-slate-600">{specialist.role}</span>}
        <span className="flex flex-wrap gap-1">
          {specialist.is_ai && <Badge tone="blue">{admin.settings.ai}</Badge>}
          {specialist.seniority && <Badge>{specialist.seniority}</Badge>}
          {assigned && <Badge tone={mode === 'DEFAULT' ? 'teal' : 'violet'}>{mode === 'DEFAULT' ? admin.settings.modeDefault : admin.settings.modeCustom}</Badge>}
        </span>
      </span>
    </label>
  );
}
