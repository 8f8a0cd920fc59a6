// R2.10 / R16.5: what a conversation row says of files when its last message or its draft has no
// text: one photo 'Fotka', one file its name, several '3 fotky' when all are images, else '3 prílohy'.
import type { FilesSummary } from '../../../sync/model/local-types.ts';
import { skShell as sk } from '../../text/sk-shell.ts';

export function filesSnippet(files: FilesSummary | undefined): string {
  if (!files || files.count <= 0) return '';
  if (files.count === 1) return files.images === 1 ? sk.chats.photo : (files.name ?? sk.chats.file);
  return files.images === files.count ? sk.chats.photos(files.count) : sk.chats.attachments(files.count);
}
