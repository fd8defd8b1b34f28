import { describe, expect, it } from 'vitest';
import { showControls } from '../../src/core/log.ts';
import { formatDuration } from '../../src/core/outcome.ts';
import { recordedRow, renderSummary, writeSummary, type RecordedRow } from '../../src/action/summary.ts';
import type { Log } from '../../src/core/log.ts';

const row: RecordedRow = {
  artifact: '42',
  environment: 'Staging',
  version: '2.0.0',
  commitSha: 'a1b2c3d4e5f6',
  branch: 'main',
  status: 'STARTED',
  id: '1',
  link: 'https://github.com/acme/shop/actions/runs/1/job/2',
};

describe('renderSummary', () => {
  it('writes one element a line', () => {
    expect(
      renderSummary(
        { heading: 'Deployment recorded', rows: [row], failures: [['a: HTTP 422:', '  body.x: bad <x>']] },
        showControls,
      ),
    ).toBe(
      [
        '<h3>Deployment recorded</h3>',
        '<table><tr><th>Artifact</th><th>Environment</th><th>Version</th><th>Commit</th><th>Branch</th><th>Status</th><th>Id</th><th>Link</th></tr>' +
          '<tr><td>42</td><td>Staging</td><td>2.0.0</td><td><code>a1b2c3d</code></td><td>main</td><td>STARTED</td><td>1</td>' +
          '<td><a href="https://github.com/acme/shop/actions/runs/1/job/2">github.com</a></td></tr></table>',
        '<ul><li>a: HTTP 422:<br>  body.x: bad &#60;x&#62;</li></ul>',
        '',
      ].join('\n'),
    );
  });

  it('keeps a value from breaking out of the HTML: no blank line, no raw markup', () => {
    const hostile = 'x\n\n# Heading\n\n![beacon](https://evil.example/b.png)\r\r<img src=x>';
    const html = renderSummary(
      {
        heading: hostile,
        lines: [hostile],
        rows: [{ ...row, branch: hostile, link: 'javascript:alert(1)' }],
        failures: [[hostile]],
      },
      showControls,
    );
    expect(
      html
        .split('\n')
        .slice(0, -1)
        .every((line) => /^<(h3|p|table|ul)>/.test(line)),
    ).toBe(true);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain('x\\n\\n# Heading');
  });

  it('writes rows and failures one after another, nothing between them', () => {
    const html = renderSummary(
      { heading: 'h', rows: [row, { ...row, id: '2' }], failures: [['a'], ['b']] },
      showControls,
    );
    expect(html).toContain(
      '<td>1</td><td><a href="https://github.com/acme/shop/actions/runs/1/job/2">github.com</a></td></tr><tr><td>42</td>',
    );
    expect(html).toContain('<ul><li>a</li><li>b</li></ul>');
  });

  it('links only what starts with http:// or https://, in either case', () => {
    const link = (value: string) => renderSummary({ heading: 'h', rows: [{ ...row, link: value }] }, showControls);
    expect(link('http://deploy.example/x')).toContain('<td><a href="http://deploy.example/x">deploy.example</a></td>');
    expect(link('HTTPS://deploy.example/x')).toContain(
      '<td><a href="HTTPS://deploy.example/x">deploy.example</a></td>',
    );
    expect(link('javascript:alert(1)//https://x')).toContain('<td>javascript:alert(1)//https://x</td>');
  });

  it('takes a row from what was recorded, an absent link as none', () => {
    const recorded = recordedRow(
      {
        artifactName: 'web',
        environment: 'Production',
        version: '1',
        commitSha: 'abc',
        branch: 'main',
        user: 'u',
        type: 'SIMPLE',
        status: 'STARTED',
      },
      { text: '7', numeric: true },
    );
    expect(recorded).toEqual({
      ...row,
      artifact: 'web',
      environment: 'Production',
      version: '1',
      commitSha: 'abc',
      id: '7',
      link: '',
    });
  });

  it.each([
    ['https://marketing-site-k3j9x2p7q-acme-web.vercel.app', 'marketing-site-k3j9x2p7q-acme-web.vercel.app'],
    ['https://argocd.acme-web.example:8443/applications/x?operation=true', 'argocd.acme-web.example:8443'],
    ['https://', 'link'],
    ['https://a b', 'link'],
  ])('shows the link %s by where it leads: %s', (link, text) => {
    const html = renderSummary({ heading: 'h', rows: [{ ...row, link }] }, showControls);
    expect(html).toContain(`<td><a href="${link}">${text}</a></td>`);
  });

  it('stays within its byte budget, saying what it left out', () => {
    const long = '<'.repeat(10_000);
    const rows = Array.from({ length: 100 }, (_, index) => ({
      ...row,
      id: String(index),
      artifact: long,
      version: long,
      branch: long,
    }));
    const failures = Array.from({ length: 100 }, () => [long, long]);
    const html = renderSummary({ heading: 'h', rows, failures }, showControls);
    expect(Buffer.byteLength(html)).toBeLessThanOrEqual(256 * 1024);
    expect(html).toMatch(/<p>\d+ more failures are not shown here \(see the log\)\.<\/p>/);
    expect(html).toContain('<td>0</td>');
  });
});

describe('writeSummary', () => {
  it('outside a runner (no GITHUB_STEP_SUMMARY) only says so at debug level', () => {
    const said: string[] = [];
    const log: Log = {
      info: (text) => said.push(`info ${String(text)}`),
      warning: (text) => said.push(`warning ${String(text)}`),
      debug: (text) => said.push(`debug ${String(text)}`),
      clean: (line) => line,
    };
    const saved = process.env.GITHUB_STEP_SUMMARY;
    delete process.env.GITHUB_STEP_SUMMARY;
    try {
      writeSummary({ heading: 'h' }, log);
    } finally {
      if (saved !== undefined) process.env.GITHUB_STEP_SUMMARY = saved;
    }
    expect(said).toEqual(['debug No GITHUB_STEP_SUMMARY: job summary skipped.']);
  });
});

// The budget (Limits.summaryBytes, 256 KiB) exactly: the heading and paragraphs are charged first,
// then each row or failure that fits whole. The paragraphs below leave exactly `room` bytes.
describe("renderSummary's byte budget, to the byte", () => {
  const budget = 256 * 1024;
  const heading = '<h3>h</h3>';

  /** Paragraphs that take `bytes` bytes after the heading: each is '\n<p>…</p>'. */
  function paragraphsTaking(bytes: number): string[] {
    const lines: string[] = [];
    let left = bytes;
    while (left > 2008 + 8) {
      lines.push('a'.repeat(2000));
      left -= 2008;
    }
    if (left > 2008) {
      lines.push('a'.repeat(1000));
      left -= 1008;
    }
    lines.push('a'.repeat(left - 8));
    return lines;
  }

  /** The HTML of one row as the summary writes it. */
  function rowHtml(recorded: RecordedRow): string {
    const html = renderSummary({ heading: 'h', rows: [recorded] }, showControls);
    return /<\/th><\/tr>(<tr>.*<\/tr>)<\/table>/.exec(html)?.[1] ?? '';
  }

  function failureHtml(lines: string[]): string {
    const html = renderSummary({ heading: 'h', failures: [lines] }, showControls);
    return /<ul>(.*)<\/ul>/.exec(html)?.[1] ?? '';
  }

  it('checks its own arithmetic: the paragraphs take exactly what they are asked to', () => {
    const lines = paragraphsTaking(200_000);
    expect(Buffer.byteLength([heading, ...lines.map((line) => `<p>${line}</p>`)].join('\n'))).toBe(10 + 200_000);
  });

  it.each([
    [0, true],
    [1, false],
  ])('shows a row in a room of its size less %i bytes: %s', (short, shown) => {
    const first = { ...row, id: 'first' };
    const size = Buffer.byteLength(rowHtml(first));
    expect(size).toBeGreaterThan(100);
    const lines = paragraphsTaking(budget - heading.length - size + short);
    const html = renderSummary({ heading: 'h', lines, rows: [first, { ...row, id: 'second' }] }, showControls);
    expect(html.includes('<td>first</td>')).toBe(shown);
    expect(html).not.toContain('<td>second</td>');
    expect(html).toContain(`<p>${shown ? 1 : 2} more deployments are not shown here (see the log).</p>`);
  });

  it('charges each row it shows: the next row gets only what is left', () => {
    const first = { ...row, id: 'first' };
    const second = { ...row, id: 'secon' };
    const size = Buffer.byteLength(rowHtml(first));
    expect(Buffer.byteLength(rowHtml(second))).toBe(size);
    // Room for the first row and one byte less than the second.
    const lines = paragraphsTaking(budget - heading.length - 2 * size + 1);
    const html = renderSummary({ heading: 'h', lines, rows: [first, second, { ...row, id: 'third' }] }, showControls);
    expect(html).toContain('<td>first</td>');
    expect(html).not.toContain('<td>secon</td>');
    expect(html).toContain('<p>2 more deployments are not shown here (see the log).</p>');
  });

  it('shows a failure that fits exactly in what the rows left, and counts the ones it leaves out', () => {
    const failure = ['x: HTTP 500', '  detail'];
    const size = Buffer.byteLength(failureHtml(failure));
    const rowSize = Buffer.byteLength(rowHtml(row));
    const lines = paragraphsTaking(budget - heading.length - rowSize - size);
    const failures = [failure, ['y: HTTP 500'], ['z: HTTP 500']];
    const html = renderSummary({ heading: 'h', lines, rows: [row], failures }, showControls);
    expect(html).toContain(`<ul>${failureHtml(failure)}</ul>`);
    expect(html).toContain('<p>2 more failures are not shown here (see the log).</p>');
    const over = renderSummary(
      { heading: 'h', lines: paragraphsTaking(budget - heading.length - rowSize - size + 1), rows: [row], failures },
      showControls,
    );
    expect(over).toContain('<ul></ul>');
    expect(over).toContain('<p>3 more failures are not shown here (see the log).</p>');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [61_000, '1m 1s'],
    [3_723_000, '1h 2m 3s'],
  ])('%i ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
