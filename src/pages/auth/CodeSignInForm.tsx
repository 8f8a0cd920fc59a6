// Sign-in with the 6-digit code of a magic-link or welcome mail (issue 37 user item 9). The installed
// PWA and the mail app's browser are different places: a link opened there signs the browser in, not
// the PWA, while a code typed here signs in where the user is. verifyOtp's type 'email' redeems the
// codes of magic-link, sign-up and invitation (welcome) mails (GoTrue verify.go), so every mail that
// offers a code has this screen to take it; recovery mails offer only their link.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { signInWithCode } from '../../auth/auth-actions.ts';
import { toastSuccess } from '../../lib/notify.ts';
import { sk } from '../../text/sk.ts';
import { FormAlert } from './FormAlert.tsx';
import { requireEmail } from './require-email.ts';

interface Props {
  email: string;
  /** Opened by the caller (after a magic link was sent): the field then takes focus. */
  open: boolean;
  onOpen: () => void;
}

export function CodeSignInForm({ email, open, onOpen }: Props) {
  const id = useId();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  if (!open) {
    return (
      <button type="button" className="link self-center" onClick={onOpen}>
        {sk.auth.enterCode}
      </button>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const address = requireEmail(email);
    if (!address) return;
    const digits = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError(sk.auth.codeFormat);
      return;
    }
    setBusy(true);
    setError(null);
    const result = await signInWithCode(address, digits);
    setBusy(false);
    if (result.error) setError(result.error);
    else toastSuccess(sk.auth.signedIn);
  };

  return (
    <form
      className="flex flex-col gap-3 border-t border-slate-200 pt-4"
      onSubmit={(e) => void submit(e)}
    >
      <label htmlFor={id} className="text-sm font-medium">
        {sk.auth.codeLabel}
      </label>
      <input
        ref={input}
        id={id}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={7}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        aria-describedby={`${id}-hint`}
        className="field tracking-[0.3em]"
      />
      <p id={`${id}-hint`} className="text-sm text-slate-600">
        {sk.auth.codeHint}
      </p>
      <FormAlert message={error} />
      <button type="submit" className="btn-secondary" disabled={busy}>
        {sk.auth.signInWithCode}
      </button>
    </form>
  );
}
