// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { PasswordInput } from '../../../src/components/PasswordInput.tsx';

afterEach(cleanup);

describe('PasswordInput', () => {
  it('is labelled and toggles between hidden and shown with the keyboard', async () => {
    const user = userEvent.setup({ delay: null });
    render(<PasswordInput label="Heslo" defaultValue="tajne123" />);
    const input = screen.getByLabelText<HTMLInputElement>('Heslo');
    expect(input.type).toBe('password');
    await user.click(input);
    await user.tab();
    const toggle = screen.getByRole('button', { name: 'Zobraziť heslo' });
    expect(document.activeElement).toBe(toggle);
    await user.keyboard('{Enter}');
    expect(input.type).toBe('text');
    expect(screen.getByRole('button', { name: 'Skryť heslo' }).getAttribute('aria-pressed')).toBe('true');
    await user.keyboard(' ');
    expect(input.type).toBe('password');
  });
  it('describes the field with its error', () => {
    render(<PasswordInput label="Heslo" error="Heslo musí mať aspoň 8 znakov." />);
    const input = screen.getByLabelText('Heslo');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const describedBy = input.getAttribute('aria-describedby');
    expect(describedBy && document.getElementById(describedBy)?.textContent).toBe('Heslo musí mať aspoň 8 znakov.');
  });
});
