// Minimal shell until the user-area issue brings the real screens: password sign-in wired to /auth/v1.
import { useEffect, useState, type FormEvent } from 'react';
import type { Session } from '@supabase/supabase-js';
import { supabase } from './supabase.ts';

export function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void supabase.auth.getSession().then(({ data }) => setSession(data.session));
    const { data } = supabase.auth.onAuthStateChange((_e, s) => setSession(s));
    return () => data.subscription.unsubscribe();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const { error: err } = await supabase.auth.signInWithPassword({ email, password });
    setBusy(false);
    if (err) setError(err.code === 'invalid_credentials' ? 'Nesprávny e-mail alebo heslo.' : 'Nepodarilo sa prihlásiť. Skús to znova.');
  };

  if (session) {
    return (
      <main className="mx-auto max-w-md p-6">
        <h1 className="text-xl font-semibold">Poradňa</h1>
        <p className="mt-4">Prihlásený ako {session.user.email}</p>
        <button className="mt-4 rounded bg-slate-800 px-4 py-2 text-white" onClick={() => void supabase.auth.signOut()}>
          Odhlásiť sa
        </button>
      </main>
    );
  }
  return (
    <main className="mx-auto max-w-md p-6">
      <h1 className="text-xl font-semibold">Poradňa</h1>
      <form className="mt-6 flex flex-col gap-3" onSubmit={(e) => void submit(e)}>
        <label className="flex flex-col gap-1">
          E-mail
          <input className="rounded border p-2" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="flex flex-col gap-1">
          Heslo
          <input className="rounded border p-2" type="password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {error && <p role="alert" className="text-red-700">{error}</p>}
        <button className="rounded bg-teal-700 px-4 py-2 text-white disabled:opacity-60" disabled={busy} type="submit">
          Prihlásiť
        </button>
      </form>
    </main>
  );
}
