// Which engine the signed-in area needs: one per user, in the impersonated account while a super
// admin impersonates, else in the user's own account (known from the account cache or server; null
// lets the engine use the account its store already holds, or look it up).
export interface EngineTarget {
  userId: string;
  accountId: string | null;
}

export function engineTarget(userId: string | null, impersonatedAccountId: string | null, ownAccountId: string | null): EngineTarget | null {
  if (userId === null) return null;
  return { userId, accountId: impersonatedAccountId ?? ownAccountId };
}

export function sameTarget(a: EngineTarget | null, b: EngineTarget | null): boolean {
  return a?.userId === b?.userId && a?.accountId === b?.accountId;
}
