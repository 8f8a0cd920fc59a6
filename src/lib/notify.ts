// The one toast system (sonner). Failures use the destructive style, usually titled 'Chyba'.
import { toast } from 'sonner';

interface ToastOptions {
  description?: string | null | undefined;
  duration?: number;
  /** A toast given the id of one still shown replaces it (sonner), e.g. 'it waits' → 'sent'. */
  id?: string;
}

function options({ description, duration, id }: ToastOptions): { description?: string; duration?: number; id?: string } {
  return { ...(description ? { description } : {}), ...(duration === undefined ? {} : { duration }), ...(id === undefined ? {} : { id }) };
}

export function toastError(title: string, description?: string, opts: Pick<ToastOptions, 'id'> = {}): void {
  toast.error(title, options({ description, ...opts }));
}

export function toastSuccess(title: string, opts: ToastOptions = {}): void {
  toast.success(title, options(opts));
}

/** Neutral news (something waits, nothing failed). */
export function toastInfo(title: string, opts: ToastOptions = {}): void {
  toast.info(title, options(opts));
}
