// Avatar initials: the first letters of the first two words, upper-cased; '?' for a blank name.
export function initialsOf(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/u).filter(Boolean);
  const letters = words.slice(0, 2).map((w) => Array.from(w)[0] ?? '');
  const joined = letters.join('').toLocaleUpperCase('sk-SK');
  return joined === '' ? '?' : joined;
}
