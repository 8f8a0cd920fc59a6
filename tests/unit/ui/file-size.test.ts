import { describe, expect, it } from 'vitest';
import { formatFileSize } from '../../../src/lib/file-size.ts';

describe('formatFileSize', () => {
  it('uses B under 1 KB', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
  });
  it('uses KB under 1 MB and MB above, with a Slovak decimal comma', () => {
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1,5 KB');
    expect(formatFileSize(1024 * 1024)).toBe('1 MB');
    expect(formatFileSize(2.25 * 1024 * 1024)).toBe('2,3 MB');
  });
  it("says 'Neznáma veľkosť' when the size is unknown", () => {
    for (const v of [null, undefined, Number.NaN, -1, Number.POSITIVE_INFINITY]) {
      expect(formatFileSize(v)).toBe('Neznáma veľkosť');
    }
  });
});
