// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';

const updatePassword = vi.fn<(p: string) => Promise<{ error: string | null }>>();
vi.mock('../../../src/auth/auth-actions.ts', () => ({ updatePassword: (p: string) => updatePassword(p) }));
const { NewPasswordForm, REDIRECT_AFTER_RESET_MS } = await import('../../../src/pages/auth/NewPasswordForm.tsx');

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  updatePassword.mockReset();
});

function renderForm() {
  render(
    <MemoryRouter initialEntries={['/auth/reset-password']}>
      <Routes>
        <Route path="/auth/reset-password" element={<NewPasswordForm />} />
        <Route path="/app/chats" element={<p>chat list</p>} />
      </Routes>
    </MemoryRouter>,
  );
  return {
    password: screen.getByLabelText('Nové heslo'),
    confirm: screen.getByLabelText('Potvrď heslo'),
    submit: screen.getByRole('button', { name: 'Zmeniť heslo' }),
  };
}

describe('NewPasswordForm', () => {
  it('shows the rule messages and keeps submit disabled until every rule holds', async () => {
    const user = userEvent.setup({ delay: null });
    const f = renderForm();
    expect(f.submit).toHaveProperty('disabled', true);
    await user.type(f.password, 'abc');
    expect(screen.getByText('Slabé heslo')).toBeTruthy();
    expect(screen.getByText('Heslo musí mať aspoň 8 znakov.')).toBeTruthy();
    expect(screen.getByText('Heslo musí obsahovať aspoň jednu číslicu.')).toBeTruthy();
    await user.type(f.password, 'defgh1');
    expect(screen.queryByText('Slabé heslo')).toBeNull();
    await user.type(f.confirm, 'abcdefgh2');
    expect(screen.getByText('Heslá sa nezhodujú')).toBeTruthy();
    expect(screen.getByText('Zadané heslá sa nezhodujú. Skús to znova.')).toBeTruthy();
    expect(f.submit).toHaveProperty('disabled', true);
    await user.clear(f.confirm);
    await user.type(f.confirm, 'abcdefgh1');
    expect(f.submit).toHaveProperty('disabled', false);
  });

  it('changes the password and goes to /app/chats after 1.5 s', async () => {
    updatePassword.mockResolvedValue({ error: null });
    const user = userEvent.setup({ delay: null });
    const f = renderForm();
    await user.type(f.password, 'noveHeslo7');
    await user.type(f.confirm, 'noveHeslo7');
    vi.useFakeTimers();
    await act(async () => {
      fireEvent.click(f.submit);
    });
    expect(updatePassword).toHaveBeenCalledWith('noveHeslo7');
    act(() => {
      vi.advanceTimersByTime(REDIRECT_AFTER_RESET_MS - 1);
    });
    expect(screen.queryByText('chat list')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText('chat list')).toBeTruthy();
  });

  it('shows the failure text and lets the user try again', async () => {
    updatePassword.mockResolvedValue({ error: 'Nepodarilo sa zmeniť heslo. Skús to znova.' });
    const user = userEvent.setup({ delay: null });
    const f = renderForm();
    await user.type(f.password, 'noveHeslo7');
    await user.type(f.confirm, 'noveHeslo7');
    await user.click(f.submit);
    expect((await screen.findByRole('alert')).textContent).toBe('Nepodarilo sa zmeniť heslo. Skús to znova.');
    expect(f.submit).toHaveProperty('disabled', false);
  });
});
