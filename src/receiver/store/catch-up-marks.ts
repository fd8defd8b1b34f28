// When catch-up first ran for each sender it reads (Argo CD: per server): what that sender's record
// held before it is its past, not deployments to send (turning catch-up on never floods the service
// with old syncs). One row per (source, name), written once and never moved; each engine keeps it in
// a table of its own, `catch_up_marks` (sqlite-catch-up-marks.ts, postgres-catch-up-marks.ts).

export interface CatchUpMarks {
  /**
   * The mark of `name` (a sender's instance) for `source`, in ms since the epoch: the stored one, or
   * `now`, stored, where there is none. Replicas asking at once all get the one that was stored first.
   */
  markOf(source: string, name: string, now: number): Promise<number>;
}
