// @vitest-environment jsdom
// src/env.ts: the PWA takes the publishable key from /env.js (`publishableKey`) or the build
// (VITE_SUPABASE_PUBLISHABLE_KEY), and still accepts the legacy names (an older stack's /env.js
// `anonKey`, VITE_SUPABASE_ANON_KEY) so existing deployments keep working.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readAppEnv } from '../../src/env.ts';

afterEach(() => {
  delete window.__PORADNA_ENV__;
  localStorage.clear();
  vi.unstubAllEnvs();
});

describe('readAppEnv', () => {
  it('reads the publishable key from /env.js, before a baked key', () => {
    vi.stubEnv('VITE_SUPABASE_PUBLISHABLE_KEY', 'sb_publishable_baked');
    window.__PORADNA_ENV__ = { supabaseUrl: 'https://a.test', publishableKey: 'sb_publishable_injected' };
    expect(readAppEnv()).toEqual({ supabaseUrl: 'https://a.test', anonKey: 'sb_publishable_injected' });
  });

  it('still reads an older /env.js that names the key anonKey', () => {
    window.__PORADNA_ENV__ = { supabaseUrl: 'https://a.test', anonKey: 'legacy-anon-jwt' };
    expect(readAppEnv().anonKey).toBe('legacy-anon-jwt');
  });

  it('takes VITE_SUPABASE_PUBLISHABLE_KEY over the legacy VITE_SUPABASE_ANON_KEY, and the legacy one alone', () => {
    vi.stubEnv('VITE_SUPABASE_URL', 'https://b.test');
    vi.stubEnv('VITE_SUPABASE_ANON_KEY', 'legacy-anon-jwt');
    expect(readAppEnv()).toEqual({ supabaseUrl: 'https://b.test', anonKey: 'legacy-anon-jwt' });
    vi.stubEnv('VITE_SUPABASE_PUBLISHABLE_KEY', 'sb_publishable_baked');
    expect(readAppEnv()).toEqual({ supabaseUrl: 'https://b.test', anonKey: 'sb_publishable_baked' });
  });
});
