// The plan card: current plan, assigned count, what the selected plan allows of AI replies (issue 36
// N5), "code - name" selector, Save changes / Saving...; a failed change puts the selection back to
// the current plan.
import { useEffect, useState } from 'react';
import { admin } from '../../text/admin.ts';
import { Badge } from '../ui/Badge.tsx';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import type { PlanRow } from './settings-data.ts';

interface PlanCardProps {
  currentPlan: string | null;
  plans: PlanRow[];
  assignedCount: number;
  saving: boolean;
  onSave: (code: string) => Promise<boolean>;
}

export function PlanCard({ currentPlan, plans, assignedCount, saving, onSave }: PlanCardProps) {
  const [selected, setSelected] = useState(currentPlan ?? '');
  const [savingPlan, setSavingPlan] = useState(false);
  useEffect(() => setSelected(currentPlan ?? ''), [currentPlan]);
  const shown = plans.find((p) => p.code === selected);

  const save = async () => {
    setSavingPlan(true);
    const ok = await onSave(selected);
    setSavingPlan(false);
    if (!ok) setSelected(currentPlan ?? '');
  };

  return (
    <Card title={admin.settings.plan} testId="plan-card">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-500">{admin.settings.currentPlan}</dt>
        <dd>
          <Badge tone="teal" testId="current-plan">
            {currentPlan ?? '—'}
          </Badge>
        </dd>
        <dt className="text-slate-500">{admin.settings.assignedCount}</dt>
        <dd data-testid="plan-assigned-count">{assignedCount}</dd>
        {shown && (
          <>
            <dt className="text-slate-500">{admin.settings.planAiLimits}</dt>
            <dd data-testid="plan-ai-limits">
              {admin.settings.planAiLimitsText(shown.ai_replies_per_user_hour, shown.ai_replies_per_account_day)}
            </dd>
          </>
        )}
      </dl>
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-1 flex-col gap-1 text-sm">
          <span className="font-medium text-slate-700">{admin.settings.selectPlan}</span>
          <select
            value={selected}
            onChange={(e) => setSelected(e.target.value)}
            className="focus-ring rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
          >
            {plans.map((p) => (
              <option key={p.id} value={p.code}>
                {admin.settings.planOption(p.code, p.name)}
              </option>
            ))}
          </select>
        </label>
        <Button variant="primary" disabled={saving || savingPlan || selected === (currentPlan ?? '')} onClick={() => void save()}>
          {savingPlan ? admin.settings.saving : admin.settings.save}
        </Button>
      </div>
    </Card>
  );
}
