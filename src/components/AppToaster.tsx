// Toasts per user-area.md section 9: one visible at a time, 5000 ms, hotkey F8, at most 420 px wide
// from medium screens up. At the bottom, above the bottom navigation and the chat's composer (72 px
// plus the safe area): at the top they covered the logo, the plan badge and the search box on phones
// (issue 21 item 15).
import type { CSSProperties } from 'react';
import { Toaster } from 'sonner';
import { useShownTheme } from '../theme/theme-choice.ts';
import { skShell as sk } from '../text/sk-shell.ts';

export const TOAST_DURATION_MS = 5000;

// Sonner's rich-colour texts fall under WCAG AA (its success green is 4.25:1 on its own background);
// these Tailwind 700/800 shades keep each type's hue at 4.5:1 or more on the same backgrounds.
const CONTRAST = {
  '--success-text': '#166534',
  '--info-text': '#1d4ed8',
  '--warning-text': '#9a3412',
  '--error-text': '#b91c1c',
} as CSSProperties;

export function AppToaster() {
  // Issue 40: sonner's own dark colours in the dark theme (its rich-colour texts are light there, so
  // the dark shades above would fall under AA on them).
  const theme = useShownTheme();
  return (
    <Toaster
      position="bottom-center"
      offset={{ bottom: 'calc(76px + env(safe-area-inset-bottom))' }}
      mobileOffset={{ bottom: 'calc(76px + env(safe-area-inset-bottom))' }}
      visibleToasts={1}
      duration={TOAST_DURATION_MS}
      hotkey={['F8']}
      richColors
      theme={theme}
      style={theme === 'light' ? CONTRAST : {}}
      closeButton
      containerAriaLabel={sk.toast.region}
      toastOptions={{ closeButtonAriaLabel: sk.toast.close, className: 'md:max-w-[420px]' }}
    />
  );
}
