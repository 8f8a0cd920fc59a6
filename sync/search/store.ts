// R15.3: the index persisted on the device, in a database of its own beside the user's sync
// database (`poradna-search-<userId>`, so the sync schema is untouched), dropped with it (R15.5).
// One snapshot: FlexSearch's exported parts and the slots (the exact keys indexed, the "high-water
// mark"), written in one transaction, so a reload always sees an index and the keys it holds.
import { Dexie, type Table } from 'dexie';
import { dexieOptions, type IdbEnvironment } from '../db/open.ts';
import { MessageIndex, type IndexSlots } from './index.ts';
import { searchDbName } from './drop.ts';

/** Bumped when the folding, the tokenizer or the export format changes: an older snapshot is rebuilt. */
export const SEARCH_FORMAT = 3; // 2: the slots fingerprint each text (index.ts sums); 3: a vocabulary index and a strict message index (index.ts)

interface PartRow {
  key: string;
  data: string;
}

interface StateRow extends IndexSlots {
  id: 'index';
  format: number;
}

export class SearchDb extends Dexie {
  parts!: Table<PartRow, string>;
  state!: Table<StateRow, string>;

  constructor(userId: string, env: IdbEnvironment = {}) {
    super(searchDbName(userId), dexieOptions(env));
    this.version(1).stores({ parts: 'key', state: 'id' });
  }
}

export async function loadSnapshot(db: SearchDb): Promise<MessageIndex | null> {
  return db.transaction('r', db.parts, db.state, async () => {
    const state = await db.state.get('index');
    if (!state || state.format !== SEARCH_FORMAT) return null;
    const parts = await db.parts.toArray();
    return MessageIndex.fromParts(
      parts.map((p) => [p.key, p.data]),
      { keys: state.keys, times: state.times, sums: state.sums, vocab: state.vocab },
    );
  });
}

export async function saveSnapshot(db: SearchDb, index: MessageIndex): Promise<void> {
  const { parts, slots } = index.exportParts();
  await db.transaction('rw', db.parts, db.state, async () => {
    await db.parts.clear();
    await db.parts.bulkPut(parts.map(([key, data]) => ({ key, data })));
    await db.state.put({ id: 'index', format: SEARCH_FORMAT, ...slots });
  });
}
