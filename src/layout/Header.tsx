// Top bar, at least 56 px: the logo, or a back button with a title; the account's plan badge, or
// 'Loading...' while the account loads; none where the page is about another account (layout-rules.ts).
import { BackButton } from '../components/BackButton.tsx';
import { Logo } from '../components/Logo.tsx';
import { usePlanLabel } from '../data/use-plan-label.ts';
import { skShell as sk } from '../text/sk-shell.ts';
import type { LayoutRules } from './layout-rules.ts';

export function Header({ rules }: { rules: LayoutRules }) {
  const plan = usePlanLabel();
  return (
    <header data-app-header="" className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 pt-[env(safe-area-inset-top)] backdrop-blur">
      <div className={`mx-auto flex min-h-14 items-center gap-2 px-4 ${rules.wide ? 'max-w-screen-2xl' : 'max-w-3xl'}`}>
        {rules.backTo && <BackButton to={rules.backTo} />}
        {rules.title ? <h1 className="text-lg font-semibold">{rules.title}</h1> : !rules.backTo && <Logo />}
        {rules.showPlan && (
          <span data-testid="plan-badge" className="ml-auto rounded-full border border-teal-200 bg-teal-50 px-2.5 py-0.5 text-xs font-semibold text-teal-800">
            {plan ?? sk.app.planLoading}
          </span>
        )}
      </div>
    </header>
  );
}
