// Issue 40: the dark theme redefines the palette shades the app uses (src/theme/dark.css). A shade
// named in a class or a stylesheet but missing there would stay its light self in the dark theme
// (a white card, slate-900 text on slate-950): every one must be mapped.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const SCALES = ['slate', 'teal', 'red', 'amber', 'emerald', 'green', 'sky', 'blue', 'indigo', 'violet', 'orange', 'yellow', 'rose', 'gray', 'zinc', 'neutral', 'stone', 'lime', 'cyan', 'purple', 'fuchsia', 'pink'];
const SHADE = new RegExp(`(?<![\\w-])(?:[a-z]+-)+?(${SCALES.join('|')})-(\\d{2,3})\\b|--color-(${SCALES.join('|')})-(\\d{2,3})\\b`, 'g');
const DARK = join(ROOT, 'src/theme/dark.css');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(tsx?|css)$/.test(name) && path !== DARK ? [path] : [];
  });
}

describe('dark palette (src/theme/dark.css)', () => {
  const dark = readFileSync(DARK, 'utf8');
  const mapped = new Set([...dark.matchAll(/--color-([a-z]+-\d+):/g)].map((m) => m[1]));

  it('maps every palette shade the app names, and white', () => {
    const named = new Map<string, string>();
    for (const file of files(join(ROOT, 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(SHADE)) named.set(`${m[1] ?? m[3]}-${m[2] ?? m[4]}`, file.slice(ROOT.length + 1));
    }
    expect(named.size).toBeGreaterThan(20);
    const missing = [...named].filter(([shade]) => !mapped.has(shade)).map(([shade, file]) => `${shade} (${file})`);
    expect(missing).toEqual([]);
    expect(dark).toMatch(/--color-white: #[0-9a-f]{6};/);
  });

  it('turns the page dark and its text light (the neutral ends swap)', () => {
    const value = (shade: string) => new RegExp(`--color-${shade}: (#[0-9a-f]{6});`).exec(dark)?.[1];
    const lightness = (hex: string) => parseInt(hex.slice(1, 3), 16) + parseInt(hex.slice(3, 5), 16) + parseInt(hex.slice(5, 7), 16);
    expect(lightness(value('slate-50')!)).toBeLessThan(lightness(value('slate-900')!));
    expect(lightness(/--color-white: (#[0-9a-f]{6});/.exec(dark)![1]!)).toBeLessThan(3 * 64);
  });
});
