// How long the receiver remembers a delivery, and what it makes of one older than that. A signature
// without a time (GitHub's, Flux's) proves who sent a body, never when: only the deduplication row,
// kept for RETAIN_MS, tells a replay from a first delivery. Past it, the payload's own signed time
// (`sentAt`) is what is left, and a delivery older than the window is recorded nowhere.

/** Longer than any sender redelivers (GitHub: 3 days), so that a redelivery is still found a duplicate. */
export const RETAIN_MS = 7 * 24 * 3600_000;

/**
 * How far ahead of the receiver's clock a sender's may run: a delivery is refused this much before
 * its deduplication row can be gone, so that a replay never finds the row gone and the time still in.
 */
export const SENDER_CLOCK_AHEAD_MS = 5 * 60_000;

/** Why a delivery sent at `sentAt` (ms since the epoch) is too old to store at `now`; undefined when it is not. */
export function tooOld(sentAt: number | undefined, now: number): string | undefined {
  if (sentAt === undefined || now - sentAt <= RETAIN_MS - SENDER_CLOCK_AHEAD_MS) return undefined;
  return `sent ${new Date(sentAt).toISOString()}, older than the ${RETAIN_MS / (24 * 3600_000)}-day retention window: a replay, or a delivery too late to tell from one; nothing is stored`;
}
