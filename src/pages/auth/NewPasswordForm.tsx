// The new-password form: the spec's rules shown as the user types, submit disabled until they hold;
// success → toast 'Heslo bolo zmenené' (2.5 s) and /app/chats 1.5 s later.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { updatePassword } from '../../auth/auth-actions.ts';
import { PasswordInput } from '../../components/PasswordInput.tsx';
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { passwordProblems } from '../../lib/password-rules.ts';
import { sk } from '../../text/sk.ts';
import { FormAlert } from './FormAlert.tsx';
import { PasswordRuleErrors } from './PasswordRuleErrors.tsx';

export const REDIRECT_AFTER_RESET_MS = 1500;
export const RESET_TOAST_MS = 2500;

export function NewPasswordForm() {
  const navigate = useNavigate();
  const id = useId();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const problems = passwordProblems(password, confirm);
  const passwordProblemsShown = password === '' ? [] : problems.filter((p) => p.field === 'password');
  const confirmProblemsShown = confirm === '' ? [] : problems.filter((p) => p.field === 'confirm');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const first = problems[0];
    if (first) {
      toastError(first.title, first.description);
      return;
    }
    setBusy(true);
    setError(null);
    const result = await updatePassword(password);
    if (result.error) {
      setBusy(false);
      setError(result.error);
      return;
    }
    setDone(true);
    toastSuccess(sk.auth.passwordChanged, { duration: RESET_TOAST_MS });
    timer.current = setTimeout(() => void navigate('/app/chats', { replace: true }), REDIRECT_AFTER_RESET_MS);
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)}>
      <PasswordInput
        label={sk.auth.newPassword}
        name="new-password"
        autoComplete="new-password"
        required
        autoFocus
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        aria-describedby={passwordProblemsShown.length ? `${id}-pw` : undefined}
      />
      <PasswordRuleErrors id={`${id}-pw`} problems={passwordProblemsShown} />
      <PasswordInput
        label={sk.auth.confirmPassword}
        name="confirm-password"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => setConfirm(e.target.value)}
        aria-describedby={confirmProblemsShown.length ? `${id}-confirm` : undefined}
      />
      <PasswordRuleErrors id={`${id}-confirm`} problems={confirmProblemsShown} />
      <FormAlert message={error} />
      <button type="submit" className="btn-primary" disabled={busy || done || problems.length > 0}>
        {sk.auth.savePassword}
      </button>
    </form>
  );
}
