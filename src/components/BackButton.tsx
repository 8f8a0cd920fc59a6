import { Link } from 'react-router-dom';
import { skShell as sk } from '../text/sk-shell.ts';

export function BackButton({ to }: { to: string }) {
  return (
    <Link
      to={to}
      aria-label={sk.app.back}
      className="focus-ring -ml-2 inline-flex h-11 w-11 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M15 18l-6-6 6-6" />
      </svg>
    </Link>
  );
}
