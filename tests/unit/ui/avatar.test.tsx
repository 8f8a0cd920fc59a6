// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Avatar, AVATAR_SIZES } from '../../../src/components/Avatar.tsx';
import { initialsOf } from '../../../src/lib/initials.ts';

afterEach(cleanup);

describe('Avatar', () => {
  it('has the spec sizes xs 24, sm 32, md 40, lg 48', () => {
    expect(AVATAR_SIZES).toEqual({ xs: 24, sm: 32, md: 40, lg: 48 });
    for (const size of ['xs', 'sm', 'md', 'lg'] as const) {
      render(<Avatar name="Eva Nováková" size={size} />);
      const el = screen.getByRole('img', { name: 'Eva Nováková' });
      expect(el.style.width).toBe(`${AVATAR_SIZES[size]}px`);
      expect(el.style.height).toBe(`${AVATAR_SIZES[size]}px`);
      cleanup();
    }
  });
  it('shows initials without an image', () => {
    render(<Avatar name="eva nováková" />);
    expect(screen.getByRole('img', { name: 'eva nováková' }).textContent).toBe('EN');
  });
  it('falls back to the fallback image, then to initials, when images fail', () => {
    render(<Avatar name="Ján Kováč" src="/avatars/broken.png" fallbackSrc="/avatars/fallback.png" />);
    const img = screen.getByRole('img', { name: 'Ján Kováč' });
    expect(img.getAttribute('src')).toBe('/avatars/broken.png');
    fireEvent.error(img);
    const fallback = screen.getByRole('img', { name: 'Ján Kováč' });
    expect(fallback.getAttribute('src')).toBe('/avatars/fallback.png');
    fireEvent.error(fallback);
    const initials = screen.getByRole('img', { name: 'Ján Kováč' });
    expect(initials.tagName).toBe('SPAN');
    expect(initials.textContent).toBe('JK');
  });
  it('goes straight to initials when only the image fails', () => {
    render(<Avatar name="Peter" src="/x.png" />);
    fireEvent.error(screen.getByRole('img', { name: 'Peter' }));
    expect(screen.getByRole('img', { name: 'Peter' }).textContent).toBe('P');
  });
});

describe('initialsOf', () => {
  it('takes up to two words, upper-cased, and ? for blanks', () => {
    expect(initialsOf('Anna Mária Horváthová')).toBe('AM');
    expect(initialsOf('  šimon  ')).toBe('Š');
    expect(initialsOf('')).toBe('?');
    expect(initialsOf(null)).toBe('?');
    expect(initialsOf(undefined)).toBe('?');
  });
});
