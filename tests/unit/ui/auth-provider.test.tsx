// @vitest-environment jsdom
import { act, cleanup, render, screen } from '@testing-library/react';
import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../../../src/auth/auth-context.ts';
import { AuthProvider, type AuthClientLike } from '../../../src/auth/AuthProvider.tsx';
import { markSignOutIntended } from '../../../src/auth/sign-out-intent.ts';

afterEach(cleanup);

type Listener = (event: AuthChangeEvent, session: Session | null) => void;

function fakeClient() {
  let listener: Listener | undefined;
  const unsubscribe = vi.fn();
  const client: AuthClientLike = {
    onAuthStateChange(cb) {
      listener = cb;
      return { data: { subscription: { unsubscribe } } };
    },
  };
  const emit = (event: AuthChangeEvent, session: Session | null) => act(() => listener?.(event, session));
  return { client, emit, unsubscribe };
}

const session = (expiresInS: number) =>
  ({ access_token: 'jwt', refresh_token: 'r', expires_in: 3600, expires_at: Math.floor(Date.now() / 1000) + expiresInS, token_type: 'bearer', user: { id: 'u1', email: 'eva@example.sk' } }) as unknown as Session;

function Probe() {
  const { user, loading, isValidSession, signedOutOnPurpose } = useAuth();
  return <p>{loading ? 'loading' : `${user?.email ?? 'anonymous'} ${isValidSession ? 'valid' : 'invalid'}${signedOutOnPurpose ? ' asked' : ''}`}</p>;
}

describe('AuthProvider', () => {
  it('is loading until the first session result, then exposes user and validity', () => {
    const { client, emit } = fakeClient();
    render(
      <AuthProvider client={client}>
        <Probe />
      </AuthProvider>,
    );
    expect(screen.getByText('loading')).toBeTruthy();
    emit('INITIAL_SESSION', null);
    expect(screen.getByText('anonymous invalid')).toBeTruthy();
    emit('SIGNED_IN', session(3600));
    expect(screen.getByText('eva@example.sk valid')).toBeTruthy();
    emit('TOKEN_REFRESHED', session(-10));
    expect(screen.getByText('eva@example.sk invalid')).toBeTruthy();
  });

  it("renders with the stored session before the client loads; the client's first event replaces it", () => {
    const { client, emit } = fakeClient();
    render(
      <AuthProvider client={client} initialSession={session(3600)}>
        <Probe />
      </AuthProvider>,
    );
    expect(screen.getByText('eva@example.sk valid')).toBeTruthy();
    emit('INITIAL_SESSION', null); // the server rejected the stored session
    expect(screen.getByText('anonymous invalid')).toBeTruthy();
  });

  it('announces a sign-out the user did not ask for, but not one they did', () => {
    const { client, emit } = fakeClient();
    const onSessionLost = vi.fn();
    render(
      <AuthProvider client={client} onSessionLost={onSessionLost}>
        <Probe />
      </AuthProvider>,
    );
    emit('INITIAL_SESSION', session(3600));
    markSignOutIntended();
    emit('SIGNED_OUT', null);
    expect(onSessionLost).not.toHaveBeenCalled();
    expect(screen.getByText('anonymous invalid asked')).toBeTruthy();
    emit('SIGNED_IN', session(3600));
    expect(screen.getByText('eva@example.sk valid')).toBeTruthy();
    emit('SIGNED_OUT', null);
    expect(onSessionLost).toHaveBeenCalledTimes(1);
    expect(screen.getByText('anonymous invalid')).toBeTruthy();
  });

  it('announces a stored session the client finds dead at start-up, also when its SIGNED_OUT came before the provider listened; once per loss', () => {
    const { client, emit } = fakeClient();
    const onSessionLost = vi.fn();
    render(
      <AuthProvider client={client} onSessionLost={onSessionLost} initialSession={session(-60)}>
        <Probe />
      </AuthProvider>,
    );
    emit('INITIAL_SESSION', null); // supabase-js's SIGNED_OUT went out before this subscription
    expect(onSessionLost).toHaveBeenCalledTimes(1);
    expect(screen.getByText('anonymous invalid')).toBeTruthy();

    const second = fakeClient();
    const again = vi.fn();
    cleanup();
    render(
      <AuthProvider client={second.client} onSessionLost={again} initialSession={session(-60)}>
        <Probe />
      </AuthProvider>,
    );
    second.emit('SIGNED_OUT', null); // heard, then the same loss as INITIAL_SESSION: one announcement
    second.emit('INITIAL_SESSION', null);
    expect(again).toHaveBeenCalledTimes(1);

    const third = fakeClient();
    const none = vi.fn();
    cleanup();
    render(
      <AuthProvider client={third.client} onSessionLost={none}>
        <Probe />
      </AuthProvider>,
    );
    third.emit('INITIAL_SESSION', null); // nothing was stored: a signed-out visit, nothing lost
    expect(none).not.toHaveBeenCalled();
  });

  it('unsubscribes on unmount', () => {
    const { client, unsubscribe } = fakeClient();
    const { unmount } = render(
      <AuthProvider client={client}>
        <Probe />
      </AuthProvider>,
    );
    unmount();
    expect(unsubscribe).toHaveBeenCalled();
  });

  it("throws 'useAuth must be used within an AuthProvider' outside the provider", () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Probe />)).toThrow('useAuth must be used within an AuthProvider');
  });
});
