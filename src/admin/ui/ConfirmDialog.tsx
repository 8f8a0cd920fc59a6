// A confirmation asked before a change that cannot be taken back by a click (issue 21 admin item 8).
// The native <dialog> opened with showModal(): the page behind is inert, focus moves into it (to the
// safe choice, Cancel) and returns to the opener on close, Escape cancels.
import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from './Button.tsx';

interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog({ title, children, confirmLabel, cancelLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    cancelRef.current?.focus();
    return () => {
      dialog.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="admin-confirm-title"
      data-testid="confirm-dialog"
      // Escape fires `cancel`; the parent unmounts the dialog.
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl bg-white p-0 shadow-xl backdrop:bg-black/40"
    >
      <div className="flex flex-col gap-3 p-4">
        <h2 id="admin-confirm-title" className="text-base font-semibold">
          {title}
        </h2>
        <div className="text-sm text-slate-700">{children}</div>
        <div className="flex flex-wrap justify-end gap-2">
          <Button ref={cancelRef} onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button variant="danger" onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
