import { Link } from 'react-router-dom';
import { skShell as sk } from '../../text/sk-shell.ts';

/** 'Archivované konverzácie' with the archived count, to /app/archived. */
export function ArchivedRow({ count }: { count: number | undefined }) {
  return (
    <Link
      to="/app/archived"
      data-testid="archived-row"
      className="focus-ring mx-4 mt-2 flex min-h-11 items-center gap-3 rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round">
        <path d="M3 7h18v3H3zM5 10v9h14v-9M10 14h4" />
      </svg>
      <span className="flex-1">{sk.chats.archivedRow}</span>
      {count !== undefined && (
        <span data-testid="archived-count" aria-label={sk.chats.archivedCount(count)} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
          {count}
        </span>
      )}
    </Link>
  );
}
