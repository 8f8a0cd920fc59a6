// Tells a sign-out the user asked for apart from one the auth client did on its own (a refresh token
// that no longer works), so only the latter is announced as 'Session vypršala'.
let intended = false;

export function markSignOutIntended(): void {
  intended = true;
}

/** Returns whether the sign-out being reported was asked for, and forgets the mark. */
export function consumeSignOutIntent(): boolean {
  const was = intended;
  intended = false;
  return was;
}
