// @vitest-environment jsdom
// The admin's configuration card says which API key and which token signing the app runs with
// (issue 41): a project still on the legacy anon JWT or HS256 tokens is named as such.
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigCard } from '../../../src/admin/edge/ConfigCard.tsx';
import { CHECKS } from '../../../src/admin/edge/edge-checks.ts';
import { apiKeyKind, tokenSigning } from '../../../src/admin/edge/key-kinds.ts';

afterEach(cleanup);

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const token = (alg: string) => `${b64({ alg, typ: 'JWT', kid: 'k' })}.${b64({ sub: 'u', role: 'authenticated' })}.c2ln`;
const legacyAnon = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ role: 'anon' })}.c2ln`;

describe('key kinds', () => {
  it('tells a publishable key from the legacy anon JWT', () => {
    expect(apiKeyKind('sb_publishable_abcdefghijklmnopqrstuv_12345678')).toBe('publishable');
    expect(apiKeyKind(legacyAnon)).toBe('legacy');
    expect(apiKeyKind('something-else')).toBe('unknown');
  });

  it('tells asymmetric from legacy token signing by the header alg', () => {
    expect(tokenSigning(token('ES256'))).toEqual({ kind: 'asymmetric', alg: 'ES256' });
    expect(tokenSigning(token('HS256'))).toEqual({ kind: 'legacy', alg: 'HS256' });
    expect(tokenSigning(null).kind).toBe('unknown');
    expect(tokenSigning('%%%.x.y').kind).toBe('unknown');
  });

  it('labels the card rows with the kinds in use', () => {
    render(<ConfigCard baseUrl="https://abc.supabase.co" anonKey="sb_publishable_abcdefghijklmnopqrstuv_12345678" accessToken={token('ES256')} checks={CHECKS} />);
    expect(screen.getByText('Publishable kľúč')).toBeTruthy();
    expect(screen.getByTestId('config-key-kind').textContent).toBe('Nový publishable kľúč (sb_publishable_…)');
    expect(screen.getByTestId('config-token-signing').textContent).toBe('ES256 – asymetrický kľúč, overenie cez JWKS');
    cleanup();
    render(<ConfigCard baseUrl="https://abc.supabase.co" anonKey={legacyAnon} accessToken={token('HS256')} checks={CHECKS} />);
    expect(screen.getByText('Anon kľúč (legacy JWT)')).toBeTruthy();
    expect(screen.getByTestId('config-key-kind').textContent).toMatch(/^Starý JWT kľúč anon – Supabase ho do konca roka 2026 vypne/);
    expect(screen.getByTestId('config-token-signing').textContent).toBe('HS256 – starý zdieľaný tajný kľúč (legacy JWT secret)');
  });
});
