// How a composer with text and attachments becomes messages (issue 38). The engine's message has one
// text and its files; a per-file caption is therefore sent as chat apps do: a file with its own
// caption goes as its own message whose text is that caption, and every other file goes together
// in one message with the typed text. Order is the tray's: captioned files first in tray order, then
// the shared message, so the typed text closes the batch. Pure (unit group).

export interface PlannedMessage<T> {
  text: string;
  files: T[];
}

export function planMessages<T extends { caption: string }>(text: string, items: readonly T[]): PlannedMessage<T>[] {
  const out: PlannedMessage<T>[] = [];
  const rest: T[] = [];
  for (const item of items) {
    const caption = item.caption.trim();
    if (caption === '') rest.push(item);
    else out.push({ text: caption, files: [item] });
  }
  if (rest.length > 0) out.push({ text: text.trim(), files: rest });
  else if (text.trim() !== '' && out.length > 0) out.push({ text: text.trim(), files: [] });
  return out;
}
