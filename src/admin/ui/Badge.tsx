import type { ReactNode } from 'react';

type Tone = 'slate' | 'teal' | 'green' | 'red' | 'amber' | 'blue' | 'violet';

const TONES: Record<Tone, string> = {
  slate: 'border-slate-200 bg-slate-50 text-slate-700',
  teal: 'border-teal-200 bg-teal-50 text-teal-800',
  green: 'border-green-200 bg-green-50 text-green-800',
  red: 'border-red-200 bg-red-50 text-red-800',
  amber: 'border-amber-200 bg-amber-50 text-amber-800',
  blue: 'border-blue-200 bg-blue-50 text-blue-800',
  violet: 'border-violet-200 bg-violet-50 text-violet-800',
};

export function Badge({ tone = 'slate', children, testId }: { tone?: Tone; children: ReactNode; testId?: string }) {
  return (
    <span data-testid={testId} className={`inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-semibold ${TONES[tone]}`}>
      {children}
    </span>
  );
}
