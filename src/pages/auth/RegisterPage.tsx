// /auth/register: e-mail only. The auth-link function creates the user and mails a set-password
// link; whatever it answers, the screen says 'E-mail bol odoslaný' (anti-enumeration). The button
// re-enables 3 s after a submit.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import { registerByEmail } from '../../auth/auth-actions.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';
import { AuthCard } from './AuthCard.tsx';
import { EmailField } from './EmailField.tsx';
import { requireEmail } from './require-email.ts';

export const REGISTER_COOLDOWN_MS = 3000;

export function RegisterPage() {
  const { session, isValidSession } = useAuth();
  const [email, setEmail] = useState('');
  const [cooling, setCooling] = useState(false);
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  if (session && isValidSession) return <Navigate to="/app/chats" replace />;

  const send = async (address: string) => {
    setCooling(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCooling(false), REGISTER_COOLDOWN_MS);
    const message = await registerByEmail(address);
    setSentMessage(message ?? sk.auth.mailSent);
    toastSuccess(sk.auth.mailSent, { description: message });
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
      <Link to="/auth/login" className="link">
        {sk.auth.haveAccount}
      </Link>
      <button type="button" className="link" disabled={cooling} onClick={resend}>
        {sk.auth.resend}
      </button>
    </>
  );

  return (
    <AuthCard title={sk.auth.registerTitle} footer={footer}>
      <form className="flex flex-col gap-4" onSubmit={submit}>
        <p className="text-sm text-slate-600">{sk.auth.registerHint}</p>
        <EmailField value={email} onChange={setEmail} autoFocus />
        {sentMessage && (
          <div role="status" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
            <p className="font-semibold">{sk.auth.mailSent}</p>
            {sentMessage !== sk.auth.mailSent && <p>{sentMessage}</p>}
          </div>
        )}
        <button type="submit" className="btn-primary" disabled={cooling}>
          {sk.auth.createAccount}
        </button>
      </form>
    </AuthCard>
  );
}
