import { skShell as sk } from '../text/sk-shell.ts';

/** Grey placeholder blocks shown while something loads; announced once as loading. */
export function Skeleton({ lines = 3, className = '' }: { lines?: number; className?: string }) {
  return (
    <div role="status" aria-busy="true" aria-label={sk.app.loading} className={`flex flex-col gap-3 p-4 ${className}`}>
      {Array.from({ length: lines }, (_, i) => (
        <div key={i} className="h-12 animate-pulse rounded-lg bg-slate-200 motion-reduce:animate-none" />
      ))}
    </div>
  );
}
