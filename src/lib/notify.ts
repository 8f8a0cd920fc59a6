// The one toast system (sonner). Failures use the destructive style, usually titled 'Chyba'.
import { toast } from 'sonner';

interface ToastOptions {
  description?: string | null | undefined;
  duration?: number;
}

function options({ description, duration }: ToastOptions): { description?: string; duration?: number } {
  return { ...(description ? { description } : {}), ...(duration === undefined ? {} : { duration }) };
}

export function toastError(title: string, description?: string): void {
  toast.error(title, options({ description }));
}

export function toastSuccess(title: string, opts: ToastOptions = {}): void {
  toast.success(title, options(opts));
}

/** Neutral news (something waits, nothing failed). */
export function toastInfo(title: string, opts: ToastOptions = {}): void {
  toast.info(title, options(opts));
}
