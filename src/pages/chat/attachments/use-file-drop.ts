// Files dropped onto the chat or pasted into it (issue 38) join the composer's attachments. Only
// events carrying files are taken: dragged or pasted text keeps its ordinary behaviour.
import { useEffect, useState, type RefObject } from 'react';

function carriesFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes('Files');
}

/** Listens on `target`; answers whether files are being dragged over it (for a drop hint). */
export function useFileDrop(target: RefObject<HTMLElement | null>, onFiles: (files: File[]) => void, enabled: boolean): boolean {
  const [dragging, setDragging] = useState(false);
  useEffect(() => {
    const el = target.current;
    if (!el || !enabled) return;
    // dragenter/dragleave fire for every child crossed: count them so the hint does not flicker.
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      e.preventDefault(); // allows the drop
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!carriesFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      depth = 0;
      setDragging(false);
      const files = Array.from(e.dataTransfer?.files ?? []);
      if (files.length === 0) return;
      e.preventDefault(); // the browser would otherwise open the file in place of the app
      onFiles(files);
    };
    const paste = (e: ClipboardEvent) => {
      const files = Array.from(e.clipboardData?.files ?? []);
      if (files.length === 0) return;
      e.preventDefault();
      onFiles(files);
    };
    el.addEventListener('dragenter', enter);
    el.addEventListener('dragover', over);
    el.addEventListener('dragleave', leave);
    el.addEventListener('drop', drop);
    el.addEventListener('paste', paste);
    return () => {
      el.removeEventListener('dragenter', enter);
      el.removeEventListener('dragover', over);
      el.removeEventListener('dragleave', leave);
      el.removeEventListener('drop', drop);
      el.removeEventListener('paste', paste);
    };
  }, [target, onFiles, enabled]);
  return dragging && enabled;
}
