// The admin area's toasts: titled 'Chyba' (destructive) or 'Úspech' with the spec's text below.
import { toastError, toastSuccess } from '../../lib/notify.ts';
import { admin } from '../../text/admin.ts';

export function adminError(text: string): void {
  toastError(admin.toast.error, text);
}

export function adminSuccess(text: string): void {
  toastSuccess(admin.toast.success, { description: text });
}
