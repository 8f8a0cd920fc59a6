// Issue 37 admin item 1: before sending, an impersonating admin is told that the customer sees what
// they write as a message from support (the server marks it, SupportByline shows it).
import { useImpersonation } from '../../account/use-impersonation.ts';
import { sk } from '../../text/sk.ts';

export function SupportComposeNote({ show }: { show: boolean }) {
  const impersonation = useImpersonation();
  if (!impersonation || !show) return null;
  return (
    <p data-testid="support-compose-note" className="border-t border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900">
      {sk.walk.supportComposeNote}
    </p>
  );
}
