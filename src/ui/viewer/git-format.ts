/** How the diff, blame and file history views write commits: short oids, relative dates. */

export const shortOid = (oid: string) => oid.slice(0, 7);

const UNITS: Array<[limitSeconds: number, seconds: number, unit: Intl.RelativeTimeFormatUnit]> = [
  [60, 1, 'second'],
  [3600, 60, 'minute'],
  [86_400, 3600, 'hour'],
  [7 * 86_400, 86_400, 'day'],
  [30 * 86_400, 7 * 86_400, 'week'],
  [365 * 86_400, 30 * 86_400, 'month'],
  [Infinity, 365 * 86_400, 'year'],
];

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 days ago", "last year", "in 2 hours" (a clock that is behind). */
export function relativeTime(ms: number, now = Date.now()): string {
  const seconds = Math.round((ms - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 45) return 'just now';
  const [, size, unit] = UNITS.find(([limit]) => abs < limit)!;
  return rtf.format(Math.round(seconds / size), unit);
}

/** The full date for a tooltip: "2026-01-01 14:05". */
export function fullDate(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
