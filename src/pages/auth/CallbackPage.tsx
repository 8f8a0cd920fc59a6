// /auth/callback: 'Prihlasujeme ťa...' while a magic link (hash tokens) or a PKCE code becomes a
// session; then the landing page, or back to login with the spec's error text.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { establishSessionFromLink } from '../../auth/establish-session.ts';
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { supabase } from '../../supabase.ts';
import { sk } from '../../text/sk.ts';
import { AuthCard } from './AuthCard.tsx';
import { landingPathAfterSignIn } from './sign-in-landing.ts';

type Phase = { name: 'loading' } | { name: 'success' } | { name: 'error'; message: string };

export function CallbackPage() {
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>({ name: 'loading' });

  useEffect(() => {
    const href = window.location.href;
    let live = true;
    void (async () => {
      const outcome = await establishSessionFromLink(supabase.auth, href);
      if (!live) return;
      if (!outcome.ok) {
        const message = outcome.reason === 'missing' ? sk.errors.missingParams : sk.errors.invalidLink;
        setPhase({ name: 'error', message });
        toastError(sk.toast.errorTitle, message);
        await navigate('/auth/login', { replace: true });
        return;
      }
      const target = await landingPathAfterSignIn(outcome.session.user.id, () => !live);
      if (!live) return;
      setPhase({ name: 'success' });
      toastSuccess(sk.auth.signedIn);
      await navigate(target, { replace: true });
    })();
    return () => {
      live = false;
    };
  }, [navigate]);

  return (
    <AuthCard title={sk.auth.signingIn}>
      {phase.name === 'error' ? (
        <p role="alert" className="text-red-800">
          {phase.message}
        </p>
      ) : (
        <div role="status" aria-busy={phase.name === 'loading'} className="flex justify-center py-4">
          <span className="h-8 w-8 animate-spin rounded-full border-4 border-teal-600 border-t-transparent motion-reduce:animate-none" />
        </div>
      )}
    </AuthCard>
  );
}
