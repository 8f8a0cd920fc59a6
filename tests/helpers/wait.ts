// Waiting on conditions, never on fixed sleeps (the machine running tests may be slow or shared).
// The one polling loop of the server tests; each helper module keeps its own defaults.

/** What `fn` may answer while the condition does not hold yet. */
type Pending = undefined | null | false;

/** Polls `fn` every `everyMs` until it returns a value (not undefined/null/false); throws after `timeoutMs`. */
export async function pollFor<T>(fn: () => Promise<T | Pending> | T | Pending, what: string, timeoutMs: number, everyMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
