// Where a signed-in user goes from the login page: the page the sign-in guard sent them away from,
// or /app/chats. Auth pages are never a destination.
interface FromState {
  from?: { pathname?: unknown; search?: unknown; hash?: unknown };
}

export const DEFAULT_AFTER_LOGIN = '/app/chats';

export function rememberedOrigin(state: unknown): string {
  const from = (state as FromState | null)?.from;
  if (!from || typeof from.pathname !== 'string' || !from.pathname.startsWith('/')) return DEFAULT_AFTER_LOGIN;
  if (from.pathname.startsWith('/auth') || from.pathname.startsWith('//')) return DEFAULT_AFTER_LOGIN;
  const search = typeof from.search === 'string' ? from.search : '';
  const hash = typeof from.hash === 'string' ? from.hash : '';
  return `${from.pathname}${search}${hash}`;
}
