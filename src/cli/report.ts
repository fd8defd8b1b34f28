// What a command did, shown the CLI's way: the description's lines on stderr, the ids recorded on
// stdout (one a line, or a JSON object), and the exit code: 0 when recorded or failed open, 1 with
// --fail-on-error when something was not recorded.
import { idsJson } from '../core/ids.js';
import type { Report } from '../core/outcome.js';
import type { CliLog } from './log.js';
import { writeStdout } from './output.js';

export const ExitCodes = {
  ok: 0,
  /** --fail-on-error, and something was not recorded. */
  notRecorded: 1,
  /** A usage or configuration error. */
  usage: 2,
} as const;

/** Prints `report` on stderr; returns whether a request failed. */
export function showReport(report: Report, failOnError: boolean, log: CliLog): boolean {
  for (const line of report.lines) {
    if (line.warning) log.warning(line.text);
    else log.info(line.text);
  }
  for (const failure of report.failures) {
    if (failOnError) log.error(failure);
    else log.warning(failure);
  }
  return report.failures.length > 0;
}

/** The ids on stdout: one a line, as `ID=$(report-deployment start ...)` reads them; or one JSON object. */
export function printIds(report: Report, json: boolean, write: (text: string) => void = writeStdout): void {
  if (json) {
    write(`{"deploymentIds":${idsJson(report.ids)},"status":${JSON.stringify(report.status)}}\n`);
  } else if (report.ids.length) {
    write(`${report.ids.map((id) => id.text).join('\n')}\n`);
  }
}
