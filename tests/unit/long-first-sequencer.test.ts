// tests/helpers/long-first-sequencer.ts: the longest Vitest files start first (issue 42).
import { describe, expect, it } from 'vitest';
import { environmentOf, longFirst, sequence, together } from '../helpers/long-first-sequencer.ts';

describe('long files first', () => {
  it('moves the listed files to the front in the list order and keeps every other file in place', () => {
    const order = ['/r/tests/db/a.test.ts', '/r/tests/db/access-matrix.test.ts', '/r/tests/server/b.test.ts', '/r/tests/sync/fuzz.test.ts', '/r/tests/unit/c.test.ts'].map((moduleId) => ({ moduleId }));
    expect(longFirst(order).map((f) => f.moduleId)).toEqual([
      '/r/tests/sync/fuzz.test.ts',
      '/r/tests/db/access-matrix.test.ts',
      '/r/tests/db/a.test.ts',
      '/r/tests/server/b.test.ts',
      '/r/tests/unit/c.test.ts',
    ]);
  });

  it('matches a whole path segment, not a file that merely ends alike', () => {
    const order = [{ moduleId: '/r/tests/sync/not-fuzz.test.ts' }, { moduleId: '/r/tests/sync/fuzz.test.ts' }];
    expect(longFirst(order, ['fuzz.test.ts']).map((f) => f.moduleId)).toEqual(['/r/tests/sync/fuzz.test.ts', '/r/tests/sync/not-fuzz.test.ts']);
  });

  it('puts the files one shared worker can run next to each other, each key in the order of its first file', () => {
    const order = ['unit:jsdom:a', 'unit:node:b', 'unit:jsdom:c', 'unit:node:d', 'unit:jsdom:e', 'db:node:f'];
    expect(together(order, (f) => f.split(':').slice(0, 2).join(':'))).toEqual(['unit:jsdom:a', 'unit:jsdom:c', 'unit:jsdom:e', 'unit:node:b', 'unit:node:d', 'db:node:f']);
  });

  it('orders a run: the long files first whatever their key, then each key’s files together', () => {
    // moduleId "/r/<project>/<environment>/<name>"; the long file is a unit:node file, listed last by Vitest
    const order = ['/r/unit/jsdom/a', '/r/db/node/f', '/r/unit/node/b', '/r/unit/jsdom/c', '/r/unit/node/long'].map((moduleId) => ({ moduleId }));
    const key = (f: { moduleId: string }) => f.moduleId.split('/').slice(2, 4).join(':');
    expect(sequence(order, key, ['long']).map((f) => f.moduleId)).toEqual([
      '/r/unit/node/long',
      '/r/unit/jsdom/a',
      '/r/unit/jsdom/c',
      '/r/db/node/f',
      '/r/unit/node/b',
    ]);
  });

  it('reads a file’s environment as Vitest does: its docblock, else the project’s, else node', () => {
    expect(environmentOf('// @vitest-environment jsdom\nimport x from "y";', 'node')).toBe('jsdom');
    expect(environmentOf('/**\n * @jest-environment happy-dom\n */', undefined)).toBe('happy-dom');
    expect(environmentOf('import x from "y";', 'jsdom')).toBe('jsdom');
    expect(environmentOf('import x from "y";', undefined)).toBe('node');
  });
});
