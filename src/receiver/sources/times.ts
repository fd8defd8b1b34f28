// A sender's own time for what it sends, read from its payload: RFC 3339 (Flux, GitHub, Argo CD) or
// GitLab's `2021-04-28 21:50:00 +0200`. Undefined for anything else: a time is never guessed.

const RFC3339 = /^(\d{4}-\d\d-\d\d)[Tt](\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?([Zz]|[+-]\d\d:\d\d)$/;
const GITLAB = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) (?:([+-]\d\d)(\d\d)|UTC)$/;

/** Milliseconds since the epoch of an RFC 3339 time (`2026-03-02T10:15:31Z`); undefined where it is none. */
export function rfc3339(value: string): number | undefined {
  const parts = RFC3339.exec(value);
  if (!parts) return undefined;
  const [, date, time, fraction, zone] = parts as unknown as [string, string, string, string | undefined, string];
  // Milliseconds: Date.parse takes three digits of a fraction, no more.
  const ms = fraction ? `.${fraction.padEnd(3, '0').slice(0, 3)}` : '';
  return calendar(date, time) ? valid(Date.parse(`${date}T${time}${ms}${zone.toUpperCase()}`)) : undefined;
}

/** GitLab's `status_changed_at` (`2021-04-28 21:50:00 +0200`, or `... UTC`), else RFC 3339. */
export function gitlabTime(value: string): number | undefined {
  const parts = GITLAB.exec(value);
  if (!parts) return rfc3339(value);
  const [, date, time, hours, minutes] = parts as unknown as [string, string, string, string?, string?];
  if (!calendar(date, time)) return undefined;
  return valid(Date.parse(`${date}T${time}${hours ? `${hours}:${minutes}` : 'Z'}`));
}

/** A day the calendar has and a time of day (Date.parse would take 30 February for 2 March). */
function calendar(date: string, time: string): boolean {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const [hours, minutes, seconds] = time.split(':').map(Number) as [number, number, number];
  const real = new Date(Date.UTC(year, month - 1, day));
  return real.getUTCMonth() === month - 1 && real.getUTCDate() === day && hours < 24 && minutes < 60 && seconds < 61;
}

function valid(ms: number): number | undefined {
  return Number.isFinite(ms) ? ms : undefined;
}
