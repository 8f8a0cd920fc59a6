import type { ReactNode } from 'react';

export function Card({ title, actions, children, testId }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section data-testid={testId} className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      {(title !== undefined || actions !== undefined) && (
        <div className="flex flex-wrap items-center gap-2">
          {title !== undefined && <h2 className="text-base font-semibold">{title}</h2>}
          {actions !== undefined && <div className="ml-auto flex flex-wrap items-center gap-2">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}
