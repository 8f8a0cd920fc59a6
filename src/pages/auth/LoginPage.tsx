// /auth/login: password sign-in or a magic link. A valid session goes on to the remembered origin
// (or /app/chats); an invalid one is cleared with the toast 'Session vypršala'.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { clearLocalSession, signIn, signInWithMagicLink } from '../../auth/auth-actions.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { rememberedOrigin } from '../../routes/remembered-origin.ts';
import { sk } from '../../text/sk.ts';
import { AuthCard } from './AuthCard.tsx';
import { CodeSignInForm } from './CodeSignInForm.tsx';
import { EmailField } from './EmailField.tsx';
import { FormAlert } from './FormAlert.tsx';
import { requireEmail } from './require-email.ts';

export function LoginPage() {
  const { session, loading, isValidSession } = useAuth();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [codeOpen, setCodeOpen] = useState(false);
  const cleared = useRef(false);

  useEffect(() => {
    if (loading || !session || isValidSession || cleared.current) return;
    cleared.current = true;
    void clearLocalSession();
    toastError(sk.auth.sessionExpired);
  }, [loading, session, isValidSession]);

  if (!loading && session && isValidSession)
    return <Navigate to={rememberedOrigin(location.state)} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setNotice(null);
    const result = await signIn(email.trim(), password);
    setBusy(false);
    if (result.error) setError(result.error);
    else toastSuccess(sk.auth.signedIn);
  };

  const sendMagicLink = async () => {
    const address = requireEmail(email);
    if (!address) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    const result = await signInWithMagicLink(address);
    setBusy(false);
    if (result.error) {
      setError(result.error);
      return;
    }
    setNotice(sk.auth.mailSent);
    toastSuccess(sk.auth.mailSent);
    setCodeOpen(true);
  };

  const footer = (
    <>
      <Link to="/auth/forgot-password" className="link">
        {sk.auth.forgotLink}
      </Link>
      <Link to="/auth/register" className="link">
        {sk.auth.registerLink}
      </Link>
    </>
  );

  return (
    <AuthCard title={sk.auth.loginTitle} footer={footer}>
      <div className="flex flex-col gap-4">
        <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)}>
          <EmailField value={email} onChange={setEmail} autoFocus />
          <PasswordInput
            label={sk.auth.password}
            name="password"
            required
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <FormAlert message={error} />
          {notice && (
            <p role="status" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
              {notice}
            </p>
          )}
          <button type="submit" className="btn-primary" disabled={busy}>
            {sk.auth.signIn}
          </button>
          <button
            type="button"
            className="btn-secondary"
            disabled={busy}
            onClick={() => void sendMagicLink()}
          >
            {sk.auth.magicLink}
          </button>
        </form>
        <CodeSignInForm email={email} open={codeOpen} onOpen={() => setCodeOpen(true)} />
      </div>
    </AuthCard>
  );
}
