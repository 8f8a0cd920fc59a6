// Toasts per user-area.md section 9: one visible at a time, 5000 ms, hotkey F8, at most 420 px wide
// from medium screens up.
import { Toaster } from 'sonner';
import { sk } from '../text/sk.ts';

export const TOAST_DURATION_MS = 5000;

export function AppToaster() {
  return (
    <Toaster
      position="top-center"
      visibleToasts={1}
      duration={TOAST_DURATION_MS}
      hotkey={['F8']}
      richColors
      closeButton
      containerAriaLabel={sk.toast.region}
      toastOptions={{ closeButtonAriaLabel: sk.toast.close, className: 'md:max-w-[420px]' }}
    />
  );
}
