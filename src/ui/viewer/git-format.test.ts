import { describe, expect, it } from 'vitest';
import { relativeTime, shortOid } from './git-format';

describe('git formatting', () => {
  const now = Date.UTC(2026, 5, 15, 12);
  it.each([
    [now - 10_000, 'just now'],
    [now - 5 * 60_000, '5 minutes ago'],
    [now - 3 * 3600_000, '3 hours ago'],
    [now - 86_400_000, 'yesterday'],
    [now - 3 * 86_400_000, '3 days ago'],
    [now - 14 * 86_400_000, '2 weeks ago'],
    [now - 90 * 86_400_000, '3 months ago'],
    [now - 400 * 86_400_000, 'last year'],
    [now - 3 * 365 * 86_400_000, '3 years ago'],
    [now + 2 * 3600_000, 'in 2 hours'],
  ])('relativeTime(%s) is %s', (ms, want) => {
    expect(relativeTime(ms, now)).toBe(want);
  });
  it('short oids are seven digits', () => {
    expect(shortOid('0123456789abcdef')).toBe('0123456');
  });
});
