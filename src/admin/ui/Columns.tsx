// Layout primitive for side-by-side sections on desktop (issue 21 admin item 12): one column on phones
// and tablets, two from 1024 px; each child card keeps its own height (items-start) so a short card
// never stretches to its neighbour. <Span> makes a child take the full row (wide tables, logs).
import type { ReactNode } from 'react';

export function Columns({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div data-testid={testId} className="grid grid-cols-1 items-start gap-3 lg:grid-cols-2">
      {children}
    </div>
  );
}

export function Span({ children }: { children: ReactNode }) {
  return <div className="flex min-w-0 flex-col gap-3 lg:col-span-2">{children}</div>;
}
