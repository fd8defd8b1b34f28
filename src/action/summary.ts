// The job summary: what a step recorded, how the post step finished it, and any failure. Written as
// HTML in which no value can change the structure: every value is escaped and kept to one line (a
// blank line would end the HTML block and let Markdown in), cells are shortened, and what the values
// fill (the heading, paragraphs, rows and failures) stays within Limits.summaryBytes; the fixed
// markup around them (the table's head, the list's tags, the "more not shown" lines) comes on top,
// well under a KiB, far from the runner's 1 MiB.
import { Limits } from '../core/constants.js';
import type { CreateBody } from '../core/deployment.js';
import type { DeploymentId } from '../core/ids.js';
import type { Log } from '../core/log.js';
import { escapeHtml, shorten } from '../core/text.js';
import { appendToRunnerFile } from './runner-files.js';

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

interface SummaryContent {
  heading: string;
  /** Sentences, one paragraph each. */
  lines?: readonly string[];
  rows?: readonly RecordedRow[];
  /** One entry per failure, each its lines. */
  failures?: readonly (readonly string[])[];
}

/** A summary row for a recorded deployment. */
export function recordedRow(body: CreateBody, id: DeploymentId): RecordedRow {
  return {
    artifact: 'artifactId' in body ? String(body.artifactId) : body.artifactName,
    environment: body.environment,
    version: body.version,
    commitSha: body.commitSha,
    branch: body.branch,
    status: body.status,
    id: id.text,
    link: body.link ?? '',
  };
}

const COLUMNS = ['Artifact', 'Environment', 'Version', 'Commit', 'Branch', 'Status', 'Id', 'Link'];

/** Appends to this step's summary; outside a runner (no GITHUB_STEP_SUMMARY) it only says so at debug level. */
export function writeSummary(content: SummaryContent, log: Log): void {
  if (!process.env.GITHUB_STEP_SUMMARY) return log.debug('No GITHUB_STEP_SUMMARY: job summary skipped.');
  try {
    appendToRunnerFile('GITHUB_STEP_SUMMARY', renderSummary(content, log.clean));
  } catch (error) {
    log.warning(`Could not write the job summary: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The summary's HTML, one element a line; `clean` makes a value one harmless line (log.clean). */
export function renderSummary(content: SummaryContent, clean: (line: string) => string): string {
  // Cleaned before it is cut, and again once escaped as HTML: the text as it is finally shown (a
  // key that holds `&#39;` could be spelled by escaping a `'`).
  const text = (value: string, max = Infinity) => clean(escapeHtml(shorten(clean(value), max)));
  const budget = new Budget(Limits.summaryBytes);
  const parts = [`<h3>${text(content.heading, Limits.summaryCellLength)}</h3>`];
  for (const line of content.lines ?? []) parts.push(`<p>${text(line, Limits.detailLength)}</p>`);
  budget.spend(parts.join('\n'));

  const rows = content.rows ?? [];
  if (rows.length) {
    const header = `<tr>${COLUMNS.map((name) => `<th>${name}</th>`).join('')}</tr>`;
    const shown = budget.take(
      rows.map(
        (row) =>
          `<tr>${tableRow(row, clean)
            .map((data) => `<td>${data}</td>`)
            .join('')}</tr>`,
      ),
    );
    parts.push(`<table>${header}${shown.join('')}</table>`);
    if (shown.length < rows.length)
      parts.push(`<p>${rows.length - shown.length} more deployments are not shown here (see the log).</p>`);
  }

  const failures = content.failures ?? [];
  if (failures.length) {
    const items = failures.map(
      (lines) => `<li>${lines.map((line) => text(line, Limits.detailLength)).join('<br>')}</li>`,
    );
    const shown = budget.take(items);
    parts.push(`<ul>${shown.join('')}</ul>`);
    if (shown.length < items.length)
      parts.push(`<p>${items.length - shown.length} more failures are not shown here (see the log).</p>`);
  }
  return `${parts.join('\n')}\n`;
}

function tableRow(row: RecordedRow, clean: (line: string) => string): string[] {
  const cell = (value: string) => clean(escapeHtml(shorten(clean(value), Limits.summaryCellLength)));
  const link = /^https?:\/\//i.test(row.link)
    ? `<a href="${cell(row.link)}">${cell(linkText(row.link))}</a>`
    : cell(row.link);
  return [
    cell(row.artifact),
    cell(row.environment),
    cell(row.version),
    // Cleaned (the key scrubbed) before it is cut, or the cut could show part of the key.
    `<code>${clean(escapeHtml(clean(row.commitSha).slice(0, 7)))}</code>`,
    cell(row.branch),
    cell(row.status),
    cell(row.id),
    link,
  ];
}

/** A link's text: the host it leads to (github.com for the job's page; a platform's own for its deployment). */
function linkText(url: string): string {
  try {
    return new URL(url).host || 'link';
  } catch {
    return 'link';
  }
}

/** How many bytes the summary may still take. */
class Budget {
  private left: number;
  constructor(bytes: number) {
    this.left = bytes;
  }
  spend(text: string): void {
    this.left -= Buffer.byteLength(text);
  }
  /** The leading items that fit, each spent. */
  take(items: readonly string[]): string[] {
    const taken: string[] = [];
    for (const item of items) {
      const size = Buffer.byteLength(item);
      if (size > this.left) break;
      this.left -= size;
      taken.push(item);
    }
    return taken;
  }
}
