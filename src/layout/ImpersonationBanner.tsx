import { useAccount } from '../account/account-context.ts';
import { useStopImpersonation } from '../account/use-stop-impersonation.ts';
import { skShell as sk } from '../text/sk-shell.ts';

export function ImpersonationBanner() {
  const { isImpersonating, impersonation } = useAccount();
  const stop = useStopImpersonation();
  if (!isImpersonating || !impersonation) return null;
  return (
    <div role="status" className="flex items-center gap-2 bg-amber-400 px-4 py-1.5 text-sm font-medium text-amber-950">
      <span className="min-w-0 flex-1 truncate">{sk.impersonation.banner(impersonation.account.name)}</span>
      <button
        type="button"
        aria-label={sk.impersonation.stop}
        onClick={() => void stop()}
        className="focus-ring inline-flex h-8 w-8 items-center justify-center rounded-full hover:bg-amber-300"
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round">
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
    </div>
  );
}
