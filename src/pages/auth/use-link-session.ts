// Runs the auth link in the address once (hash tokens or ?code=) and then drops its parameters from
// the address bar. Resolves to the outcome; 'missing' when the address carried nothing.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { establishSessionFromLink, type LinkOutcome } from '../../auth/establish-session.ts';
import { withoutLinkParams } from '../../auth/link-params.ts';
import { supabase } from '../../supabase.ts';

export function useLinkSession(): LinkOutcome | null {
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<LinkOutcome | null>(null);
  useEffect(() => {
    const href = window.location.href;
    let live = true;
    void establishSessionFromLink(supabase.auth, href).then(async (result) => {
      if (!live) return;
      setOutcome(result);
      if (result.ok) await navigate(withoutLinkParams(href), { replace: true });
    });
    return () => {
      live = false;
    };
  }, [navigate]);
  return outcome;
}
