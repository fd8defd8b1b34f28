// `deliveries` as it ships (the npm package), on a store of thousands of items: its listing is its
// product, so it reaches a reader whole (however large, however slow the reader), a listing cut by
// --limit says so on stderr, and a listing that could not be written says so by the exit code.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DRAIN_MS } from '../../src/cli/output.ts';
import { openStore } from '../../src/receiver/store/index.ts';
import { event } from '../receiver/helpers/store-contract.ts';
import { INSTALL_TIMEOUT_MS, installedCli, runCli } from '../helpers/run-cli.ts';

beforeAll(() => void installedCli(), INSTALL_TIMEOUT_MS);

const ITEMS = 3000;
const dir = mkdtempSync(join(tmpdir(), 'rd-deliveries-'));
const store = join(dir, 'receiver.sqlite');

beforeAll(async () => {
  // Far past the 64 KiB that once dropped the listing whole (about 300 bytes an item in JSON).
  const made = openStore(store);
  const events = Array.from({ length: ITEMS }, (_, index) => event(`github:shop:${index}`, 'SUCCEEDED'));
  await made.accept({ source: 'github', deliveryId: 'many', events });
  await made.close();
});

describe('deliveries, a listing of thousands of items', () => {
  it('--json with stdout piped: the whole array, parsed', async () => {
    const result = await runCli(['deliveries', '--store', store, '--state', 'all', '--json', '--limit', '5000']);

    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.length).toBeGreaterThan(ITEMS * 200);
    const items = JSON.parse(result.stdout) as Array<{ id: number; key: string }>;
    expect(items).toHaveLength(ITEMS);
    expect(items.at(-1)?.key).toBe(`github:shop:${ITEMS - 1}`);
    expect(result.stderr).toBe('');
  });

  it('the table: every item a line, after its head', async () => {
    const result = await runCli(['deliveries', '--store', store, '--state', 'pending', '--limit', '3000']);

    expect(result.exitCode, result.stderr).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(ITEMS + 1);
    expect(lines[0]).toMatch(/^ID +STATE +SOURCE/);
    expect(lines.at(-1)).toContain(`github:shop:${ITEMS - 1}`);
    expect(result.stderr).toBe('');
  });

  it('cut by the default limit (1000) or --limit: the first ones, and said on stderr', async () => {
    const cut = await runCli(['deliveries', '--store', store, '--state', 'all', '--json']);
    const few = await runCli(['deliveries', '--store', store, '--state', 'all', '--limit', '2']);

    expect(cut.exitCode).toBe(0);
    expect((JSON.parse(cut.stdout) as unknown[]).length).toBe(1000);
    expect(cut.messages).toEqual([
      'warning: only the first 1000 items are listed (--limit 1000): more are held or failed or pending or sending or done or skipped; give a larger --limit, or a narrower --state',
    ]);
    expect(few.exitCode).toBe(0);
    expect(few.stdout.trimEnd().split('\n')).toHaveLength(3);
    expect(few.messages).toHaveLength(1);
    expect(few.messages[0]).toMatch(/^warning: only the first 2 items are listed \(--limit 2\)/);
  });

  it.each([
    [['--limit', '0'], "--limit takes a number of items from 1 to 100000, got '0'."],
    [['--limit', '1e3'], "--limit takes a number of items from 1 to 100000, got '1e3'."],
    [['--limit', '100001'], "--limit takes a number of items from 1 to 100000, got '100001'."],
    [['--limit', '1000000'], "--limit takes a number of items from 1 to 100000, got '1000000'."],
    [['retry', '1', '--limit', '5'], '--state, --json and --limit go with the list only.'],
  ])('%j is a usage error naming the flag', async (args, said) => {
    const result = await runCli(['deliveries', '--store', store, ...args]);

    expect(result.exitCode).toBe(2);
    expect(result.messages[0]).toBe(`error: ${said} See \`report-deployment deliveries --help\`.`);
  });

  it(`a reader that is slow (reads nothing for more than ${DRAIN_MS} ms) still gets it all`, async () => {
    let resumed = false;
    const result = await runCli(['deliveries', '--store', store, '--state', 'all', '--json', '--limit', '5000'], {
      onSpawn: (child) => {
        child.stdout?.pause();
        // Past the bound the CLI once gave its output before ending: this wait is the case under test.
        setTimeout(() => ((resumed = true), child.stdout?.resume()), DRAIN_MS + 1_500);
      },
    });

    expect(resumed).toBe(true);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(ITEMS);
  });

  it('stdout a pipe whose reader has gone: exit 1, said on stderr', async () => {
    const path = join(dir, 'fifo');
    execFileSync('mkfifo', [path]);
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(path, constants.O_WRONLY);
    closeSync(reader);
    try {
      const result = await runCli(['deliveries', '--store', store, '--state', 'all', '--json', '--limit', '5000'], {
        stdout: writer,
      });

      expect(result.exitCode).toBe(1);
      expect(result.messages).toEqual([
        'error: the list could not be written on stdout (closed, full, or its reader has gone).',
      ]);
    } finally {
      closeSync(writer);
    }
  });

  it('stdout a full device (/dev/full, a full disk): exit 1, said on stderr', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const result = await runCli(['deliveries', '--store', store, '--state', 'all', '--json'], { stdout: full });

      expect(result.exitCode).toBe(1);
      expect(result.messages.at(-1)).toBe(
        'error: the list could not be written on stdout (closed, full, or its reader has gone).',
      );
    } finally {
      closeSync(full);
    }
  });
});

describe('help, with stdout a pipe whose reader has gone', () => {
  it('exit 1, said on stderr', async () => {
    const path = join(dir, 'fifo-help');
    execFileSync('mkfifo', [path]);
    const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(path, constants.O_WRONLY);
    closeSync(reader);
    try {
      const result = await runCli(['help'], { stdout: writer });

      expect(result.exitCode).toBe(1);
      expect(result.messages).toEqual([
        'error: the output could not be written on stdout (closed, full, or its reader has gone).',
      ]);
    } finally {
      closeSync(writer);
    }
  });
});
