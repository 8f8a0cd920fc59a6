import { describe, expect, it } from 'vitest';
import { layoutRules } from '../../../src/layout/layout-rules.ts';
import { rememberedOrigin } from '../../../src/routes/remembered-origin.ts';

describe('layoutRules (user-area.md section 2)', () => {
  it('shows the logo and both bars on the main tabs', () => {
    for (const path of ['/app/chats', '/app/specialists', '/app/settings', '/app/_demo/scroll']) {
      expect(layoutRules(path)).toEqual({ showHeader: true, showBottomNav: true, lockPageScroll: false, title: null, backTo: null, wide: false, showPlan: true, twoPane: false });
    }
  });
  it('hides both bars and stops page scrolling on a single chat', () => {
    expect(layoutRules('/app/chats/5f0c')).toMatchObject({ showHeader: false, showBottomNav: false, lockPageScroll: true });
  });
  it('issue 40: on a desktop the list and the open chat share one two-pane page with both bars', () => {
    for (const path of ['/app/chats', '/app/chats/5f0c']) {
      expect(layoutRules(path, true)).toMatchObject({ showHeader: true, showBottomNav: true, lockPageScroll: false, twoPane: true, wide: true });
    }
    expect(layoutRules('/app/archived', true)).toMatchObject({ twoPane: false, showBottomNav: false });
    expect(layoutRules('/app/settings', true).twoPane).toBe(false);
  });
  it("titles the archived list 'Archivované' with a back button and no bottom navigation", () => {
    expect(layoutRules('/app/archived')).toMatchObject({ showHeader: true, showBottomNav: false, title: 'Archivované', backTo: '/app/chats' });
  });
  it('gives paths containing /assign a back button to /app/chats', () => {
    expect(layoutRules('/app/specialists/assign')).toMatchObject({ backTo: '/app/chats' });
  });
  it("titles /admin paths 'Admin', with a back button to the accounts on deeper paths", () => {
    expect(layoutRules('/admin/accounts')).toMatchObject({ title: 'Admin', backTo: null, wide: true });
    expect(layoutRules('/admin/accounts/42/settings')).toMatchObject({ title: 'Admin', backTo: '/admin/accounts' });
    // Issue 37 admin 4: another account's page shows no plan badge (the admin's own would read as its).
    expect(layoutRules('/admin/accounts/42/settings').showPlan).toBe(false);
    expect(layoutRules('/admin/accounts').showPlan).toBe(true);
  });
});

describe('rememberedOrigin', () => {
  it('returns the guarded page the user came from, with its query', () => {
    expect(rememberedOrigin({ from: { pathname: '/app/settings', search: '?x=1', hash: '' } })).toBe('/app/settings?x=1');
  });
  it('falls back to /app/chats for nothing, auth pages or odd values', () => {
    expect(rememberedOrigin(null)).toBe('/app/chats');
    expect(rememberedOrigin({ from: { pathname: '/auth/login' } })).toBe('/app/chats');
    expect(rememberedOrigin({ from: { pathname: '//evil.example' } })).toBe('/app/chats');
    expect(rememberedOrigin({ from: { pathname: 42 } })).toBe('/app/chats');
  });
});
