// Pure state of the specialist management card (admin-area.md section 4): which specialists are
// assigned, in which mode, and the optimistic change each action makes before the server confirms.
import { matchesQuery } from '../lib/search.ts';

export type SpecialistsMode = 'DEFAULT' | 'CUSTOM';

export interface SpecialistRow {
  id: string;
  name: string;
  role: string | null;
  avatar_url: string | null;
  seniority: string | null;
  is_ai: boolean;
}

export interface Assignment {
  mode: SpecialistsMode;
  /** Active specialists (get_active_specialists): the plan's in DEFAULT, the explicit ones in CUSTOM. */
  activeIds: readonly string[];
  /** Explicit links (account_specialists). */
  explicitIds: readonly string[];
}

export function isAssigned(state: Assignment, id: string): boolean {
  return state.activeIds.includes(id);
}

/** Count of assigned specialists shown in the badge. */
export function assignedCount(state: Assignment): number {
  return new Set(state.activeIds).size;
}

/** Assign: in DEFAULT the defaults become explicit and the mode CUSTOM; then the link is added. */
export function withAssigned(state: Assignment, id: string): Assignment {
  const base = state.mode === 'DEFAULT' ? [...state.activeIds] : [...state.explicitIds];
  const explicit = base.includes(id) ? base : [...base, id];
  return { mode: 'CUSTOM', activeIds: explicit, explicitIds: explicit };
}

/** Unassign: in DEFAULT the other defaults become explicit and the mode CUSTOM; the link goes. */
export function withUnassigned(state: Assignment, id: string): Assignment {
  const base = state.mode === 'DEFAULT' ? [...state.activeIds] : [...state.explicitIds];
  const explicit = base.filter((x) => x !== id);
  return { mode: 'CUSTOM', activeIds: explicit, explicitIds: explicit };
}

/**
 * Mode switch: DEFAULT drops the explicit links; CUSTOM only changes the mode, so the account keeps
 * just its explicit links (get_active_specialists answers those in CUSTOM) — the plan's drop out.
 */
export function withMode(state: Assignment, mode: SpecialistsMode): Assignment {
  if (state.mode === mode) return state;
  if (mode === 'DEFAULT') return { mode, activeIds: state.activeIds, explicitIds: [] };
  return { mode, activeIds: state.explicitIds, explicitIds: state.explicitIds };
}

/** How many specialists stay assigned when Default is switched off (the confirmation says it first). */
export function keptOnCustom(state: Assignment): number {
  return assignedCount(withMode(state, 'CUSTOM'));
}

export function filterSpecialists<T extends SpecialistRow>(rows: readonly T[], query: string): T[] {
  return rows.filter((s) => matchesQuery(query, [s.name, s.role, s.seniority]));
}
