// /auth/forgot-password: mails a reset link that opens /auth/reset-password.
import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { resetPassword } from '../../auth/auth-actions.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';
import { AuthCard } from './AuthCard.tsx';
import { EmailField } from './EmailField.tsx';
import { FormAlert } from './FormAlert.tsx';
import { requireEmail } from './require-email.ts';

export function ForgotPasswordPage() {
  const { session, isValidSession } = useAuth();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  if (session && isValidSession) return <Navigate to="/app/chats" replace />;

  const send = async (address: string) => {
    setBusy(true);
    setError(null);
    const result = await resetPassword(address);
    setBusy(false);
    setSent(!result.error);
    if (result.error) setError(result.error);
    else toastSuccess(sk.auth.resetMailSent);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const address = requireEmail(email);
    if (address) void send(address);
  };

  const resend = () => {
    const address = requireEmail(email);
    if (address) void send(address);
  };

  const footer = (
    <>
      <button type="button" className="link" disabled={busy} onClick={resend}>
        {sk.auth.resend}
      </button>
      <Link to="/auth/login" className="link">
        {sk.auth.backToLogin}
      </Link>
      <Link to="/auth/register" className="link">
        {sk.auth.registerLink}
      </Link>
    </>
  );

  return (
    <AuthCard title={sk.auth.forgotTitle} footer={footer}>
      <form className="flex flex-col gap-4" onSubmit={submit}>
        <p className="text-sm text-slate-600">{sk.auth.forgotHint}</p>
        <EmailField value={email} onChange={setEmail} autoFocus />
        <FormAlert message={error} />
        {sent && (
          <p role="status" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
            {sk.auth.resetMailSent}
          </p>
        )}
        <button type="submit" className="btn-primary" disabled={busy}>
          {sk.auth.sendLink}
        </button>
      </form>
    </AuthCard>
  );
}
