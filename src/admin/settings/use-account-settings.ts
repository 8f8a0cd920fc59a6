// State and actions of /admin/accounts/{id}/settings: the load (not found, failure → toast and back
// to the list), and each change applied optimistically, rolled back on error, then reloaded.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { admin } from '../../text/admin.ts';
import { adminError, adminSuccess } from '../lib/toasts.ts';
import { assignSpecialist, changePlan, loadSettings, setSpecialistsMode, unassignSpecialist, type SettingsData } from './settings-data.ts';
import { isAssigned, withAssigned, withMode, withUnassigned, type SpecialistsMode } from './specialist-state.ts';

export type LoadState = { kind: 'loading' } | { kind: 'missing' } | { kind: 'ready'; data: SettingsData };

export function useAccountSettings(accountId: string) {
  const navigate = useNavigate();
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  const [saving, setSaving] = useState(false);
  // Each change counts here. A reload shows what it read only if no change began while it was on the
  // way: else it would put back the state from before that change (an admin who ticked a specialist
  // and at once unticked it saw the tick return with the first change's reload, CI session 44).
  const changes = useRef(0);

  const reload = useCallback(async () => {
    const at = changes.current;
    try {
      const data = await loadSettings(accountId);
      if (changes.current !== at) return;
      setState(data ? { kind: 'ready', data } : { kind: 'missing' });
    } catch (err) {
      console.error('account settings:', err);
      adminError(admin.settings.loadFailed);
      await navigate('/admin/accounts');
    }
  }, [accountId, navigate]);

  useEffect(() => {
    setState({ kind: 'loading' });
    void reload();
  }, [reload]);

  const data = state.kind === 'ready' ? state.data : null;

  /** Shows `optimistic` at once; on failure puts the previous state back; reloads either way. */
  const mutate = async (optimistic: SettingsData, call: () => Promise<void>, ok: string, failed: string): Promise<boolean> => {
    if (!data) return false;
    const previous = data;
    changes.current++;
    setSaving(true);
    setState({ kind: 'ready', data: optimistic });
    try {
      await call();
      adminSuccess(ok);
      return true;
    } catch (err) {
      console.error('admin change:', err);
      setState({ kind: 'ready', data: previous });
      adminError(failed);
      return false;
    } finally {
      setSaving(false);
      await reload();
    }
  };

  const savePlan = async (code: string): Promise<boolean> => {
    if (!data || code === data.account.plan) return false;
    const plan = data.plans.find((p) => p.code === code);
    const optimistic: SettingsData = {
      ...data,
      account: { ...data.account, plan: code, plan_id: plan?.id ?? data.account.plan_id, specialists_mode: 'DEFAULT' },
    };
    return mutate(optimistic, () => changePlan(accountId, code), admin.settings.planChanged(code), admin.settings.planFailed);
  };

  const setMode = async (mode: SpecialistsMode): Promise<void> => {
    if (!data || data.account.specialists_mode === mode) return;
    const optimistic: SettingsData = {
      ...data,
      account: { ...data.account, specialists_mode: mode },
      assignment: withMode(data.assignment, mode),
    };
    await mutate(
      optimistic,
      () => setSpecialistsMode(accountId, mode),
      admin.settings.modeChanged(mode === 'DEFAULT' ? 'Default' : 'Custom'),
      admin.settings.modeFailed,
    );
  };

  const toggleSpecialist = async (specialistId: string): Promise<void> => {
    if (!data) return;
    const assigned = isAssigned(data.assignment, specialistId);
    const assignment = assigned ? withUnassigned(data.assignment, specialistId) : withAssigned(data.assignment, specialistId);
    const optimistic: SettingsData = { ...data, account: { ...data.account, specialists_mode: assignment.mode }, assignment };
    await mutate(
      optimistic,
      () => (assigned ? unassignSpecialist(accountId, specialistId) : assignSpecialist(accountId, specialistId)),
      assigned ? admin.settings.unassigned : admin.settings.assigned,
      admin.settings.assignFailed,
    );
  };

  return { state, saving, savePlan, setMode, toggleSpecialist };
}
