// Conversation status: 'active' reads 'Aktívne'; any other value is a completed conversation.
import { skShell as sk } from '../text/sk-shell.ts';

export function isActiveStatus(status: string | null | undefined): boolean {
  return (status ?? 'active') === 'active';
}

export function StatusBadge({ status }: { status: string | null | undefined }) {
  const active = isActiveStatus(status);
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${
        active ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'
      }`}
    >
      {active ? sk.status.active : sk.status.completed}
    </span>
  );
}
