// The job summary: what the main step recorded, how the post step finished it, and any failure.
import * as core from '@actions/core';
import type { Log } from './log.js';

export interface RecordedRow {
  artifact: string;
  environment: string;
  version: string;
  commitSha: string;
  branch: string;
  status: string;
  id: string;
  link: string;
}

export interface SummaryContent {
  heading: string;
  /** Plain sentences. */
  lines?: string[];
  rows?: RecordedRow[];
  /** One entry per failure; shown as a list. */
  failures?: string[];
}

const COLUMNS = ['Artifact', 'Environment', 'Version', 'Commit', 'Branch', 'Status', 'Id', 'Link'];

/** Appends to this step's summary; outside a runner (no GITHUB_STEP_SUMMARY) it only logs at debug level. */
export async function writeSummary(content: SummaryContent, log: Log): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) {
    log.debug('No GITHUB_STEP_SUMMARY: job summary skipped.');
    return;
  }
  const summary = core.summary.addHeading(escapeHtml(content.heading), 3);
  for (const line of content.lines ?? []) summary.addRaw(`<p>${escapeHtml(log.redact(line))}</p>`, true);
  if (content.rows?.length) {
    summary.addTable([COLUMNS.map((data) => ({ data, header: true })), ...content.rows.map(tableRow)]);
  }
  if (content.failures?.length) {
    summary.addList(content.failures.map((failure) => escapeHtml(log.redact(failure)).replaceAll('\n', '<br>')));
  }
  try {
    await summary.write();
  } catch (error) {
    log.warning(`Could not write the job summary: ${String(error)}`);
  }
}

function tableRow(row: RecordedRow): string[] {
  const cells = [row.artifact, row.environment, row.version, row.commitSha.slice(0, 7), row.branch, row.status, row.id];
  const [artifact, environment, version, commit, branch, status, id] = cells.map(escapeHtml);
  const link = row.link ? `<a href="${escapeHtml(row.link)}">job</a>` : '';
  return [artifact, environment, version, `<code>${commit}</code>`, branch, status, id, link] as string[];
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** "3m 12s" */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h) return `${h}h ${m}m ${s}s`;
  return m ? `${m}m ${s}s` : `${s}s`;
}
