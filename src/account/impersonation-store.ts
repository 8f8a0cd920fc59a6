// Impersonation state (user-area.md section 3): persisted in localStorage under one fixed key with
// the active account id and the account object, so it survives reloads; every tab sees changes.
import { deleteListSnapshot } from '../../sw/list-snapshot.ts';
import type { Account } from '../data/remote-account.ts';

export const IMPERSONATION_KEY = 'poradna.impersonation';

export interface ImpersonationState {
  accountId: string;
  account: Account;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let cachedRaw: string | null | undefined;
let cachedState: ImpersonationState | null = null;

function parse(raw: string | null): ImpersonationState | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<ImpersonationState> | null;
    if (!value || typeof value.accountId !== 'string' || !value.account || typeof value.account.name !== 'string') return null;
    return { accountId: value.accountId, account: { ...value.account, id: value.accountId } };
  } catch {
    return null;
  }
}

function readRaw(): string | null {
  try {
    return localStorage.getItem(IMPERSONATION_KEY);
  } catch {
    return null;
  }
}

/** Stable snapshot for useSyncExternalStore: the same object until the stored value changes. */
export function getImpersonation(): ImpersonationState | null {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cachedState = parse(raw);
  }
  return cachedState;
}

/** Makes an account active with the spec's defaults: plan UNKNOWN, specialists_mode DEFAULT. */
export function setImpersonation(account: { id: string; name: string }): void {
  const state: ImpersonationState = {
    accountId: account.id,
    account: { id: account.id, name: account.name, plan: 'UNKNOWN', specialists_mode: 'DEFAULT' },
  };
  localStorage.setItem(IMPERSONATION_KEY, JSON.stringify(state));
  forgetListSnapshot();
  notify();
}

export function clearImpersonation(): void {
  try {
    localStorage.removeItem(IMPERSONATION_KEY);
  } catch {
    /* storage unavailable: nothing stored */
  }
  forgetListSnapshot();
  notify();
}

/** The list's paint snapshot shows one account's list; it must not outlive a switch of account. */
function forgetListSnapshot(): void {
  deleteListSnapshot().catch((err: unknown) => console.warn('list snapshot:', err));
}

export function subscribeImpersonation(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === IMPERSONATION_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

function notify(): void {
  for (const l of listeners) l();
}
