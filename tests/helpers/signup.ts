// Sign-up as a real user does it on a stack with hosted Supabase's defaults: POST /signup answers
// with no session and mails a confirmation; typing the mailed 6-digit code (verifyOtp) confirms the
// address and signs the client in. Tests that need a signed-in new member use this instead of
// expecting signUp() to return a session.
import type { AuthResponse, SupabaseClient } from '@supabase/supabase-js';

interface DevMail {
  to: string;
  text: string;
}

/** The 6-digit code of the newest mail to `to` (the dev mailbox lists newest first). */
export async function mailedCode(stack: { url: string }, to: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mails = (await (await fetch(`${stack.url}/_dev/mail.json`)).json()) as DevMail[];
    const code = /kód: (\d{6})/.exec(mails.find((m) => m.to === to.toLowerCase())?.text ?? '')?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mailed code for ${to}`);
}

/** signUp, then confirm through the mailbox: the client ends signed in, as signUp used to leave it. */
export async function signUpConfirmed(
  stack: { url: string },
  client: SupabaseClient,
  args: { email: string; password: string; data?: Record<string, unknown> },
): Promise<AuthResponse> {
  const signed = await client.auth.signUp({ email: args.email, password: args.password, options: { data: args.data ?? {} } });
  if (signed.error) return signed;
  const token = await mailedCode(stack, args.email);
  return client.auth.verifyOtp({ email: args.email, token, type: 'email' });
}
