// `serve` and `deliveries`: the receiver's settings read as the CLI reads them, then the receiver's
// modules loaded (only for these commands: the others' start-up never loads them).
import { ConfigError } from '../core/config-error.js';
import { Settings } from '../core/constants.js';
import { idProblem, type DeploymentId } from '../core/ids.js';
import { readSettings } from '../core/settings.js';
import { outputWritten, writeStdout } from './output.js';
import type { ItemRecord } from '../receiver/store/store.js';
import type { ReceiverArgs } from './receiver-args.js';
import type { CliLog } from './log.js';
import { ExitCodes } from './report.js';
import { cliSettings } from './source.js';

type Env = Record<string, string | undefined>;

export async function receiverCommand(args: ReceiverArgs, env: Env, log: CliLog): Promise<number> {
  try {
    return args.command === 'serve' ? await runServe(args, env, log) : await runDeliveries(args, env, log);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log.error(error.lines);
    return ExitCodes.usage;
  }
}

async function runServe(args: Extract<ReceiverArgs, { command: 'serve' }>, env: Env, log: CliLog): Promise<number> {
  const source = cliSettings({ ...args.settings, [Settings.Retries]: '0' }, env);
  // A receiver with no key would take deliveries and record none: refused at start.
  const { connection } = readSettings(
    {
      ...source,
      emptyKey: () => ({
        problem:
          "is not set: the receiver records nothing without it. Set it to the key from the service's settings page.",
      }),
    },
    env,
  );
  const { serve } = await import('../receiver/serve.js');
  const { defaultStore } = await import('../receiver/store/index.js');
  const stopSignal = new Promise<string>((resolve) => {
    // SIGHUP too: a closed terminal or a supervisor's hang-up stops it gracefully, never mid-create.
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => resolve(signal));
  });
  return serve({
    listen: args.listen,
    store: args.store ?? defaultStore(env),
    mappingFile: args.mapping,
    // Loaded only with --mapping (it loads the YAML parser).
    readMapping: async (file) => {
      const { readMapping, applyMapping } = await import('../receiver/mapping.js');
      const mapping = await readMapping(file);
      return (source, events) => applyMapping(mapping, source, events);
    },
    connection,
    // The CLI's words, but what would finish a deployment is the receiver.
    words: { ...source.words, tool: 'report-deployment serve' },
    env,
    log,
    retry: { retryForMs: args.retryHours * 3600_000, maxBackoffMs: 5 * 60_000 },
    catchUpEveryMs: args.catchUpSeconds * 1000,
    stopSignal,
  });
}

async function runDeliveries(
  args: Extract<ReceiverArgs, { command: 'deliveries' }>,
  env: Env,
  log: CliLog,
): Promise<number> {
  const { openStore, defaultStore, isPostgresUrl, shownStore } = await import('../receiver/store/index.js');
  const path = args.store ?? defaultStore(env);
  if (args.action === 'import') {
    if (!isPostgresUrl(path))
      throw new ConfigError('--store', 'must name the PostgreSQL database to import into (postgres://...).');
    const { importSqlite } = await import('../receiver/store/postgres-import.js');
    const counts = await importSqlite(args.from, path);
    log.info(
      `imported ${counts.items} event(s) (${counts.open} still to send or settle), ${counts.keys} deployment(s) and ${counts.deliveries} delivery id(s) from ${args.from} into ${shownStore(path)}`,
    );
    return ExitCodes.ok;
  }
  const { existsSync } = await import('node:fs');
  if (!isPostgresUrl(path) && !existsSync(path))
    throw new ConfigError('--store', `names no file (${path}): give the path \`serve\` stores in.`);
  const store = openStore(path);
  try {
    if (args.action === 'list') {
      // One more than asked for tells a listing that was cut from one that was not.
      const found = await store.list(args.states, args.limit + 1);
      const items = found.slice(0, args.limit);
      writeStdout(args.json ? `${JSON.stringify(items, null, 2)}\n` : table(items));
      // An empty table says nothing: the person who asked is told, on stderr (stdout stays empty for scripts).
      if (!args.json && items.length === 0) log.info(`no delivery is ${args.states.join(' or ')}`);
      if (found.length > args.limit)
        log.warning(
          `only the first ${args.limit} items are listed (--limit ${args.limit}): more are ${args.states.join(' or ')}; give a larger --limit, or a narrower --state`,
        );
      if (await outputWritten()) return ExitCodes.ok;
      log.error('the list could not be written on stdout (closed, full, or its reader has gone).');
      return ExitCodes.notRecorded;
    }
    if (args.action === 'retry') {
      let code: number = ExitCodes.ok;
      for (const id of args.ids) {
        const answer = await store.retry(id);
        if (answer.ok)
          log.info(
            `item ${id} (${answer.record.key} ${answer.record.status}): pending again, the receiver sends it next`,
          );
        else {
          log.error(`item ${id}: ${answer.reason}`);
          code = ExitCodes.notRecorded;
        }
      }
      return code;
    }
    const serviceId = deploymentId(args.deploymentId);
    const answer = await store.resolve(args.id, serviceId);
    if (!answer.ok) {
      log.error(`item ${args.id}: ${answer.reason}`);
      return ExitCodes.notRecorded;
    }
    log.info(
      `item ${args.id} (${answer.record.key}): recorded as deployment ${serviceId.text}; its later events update it`,
    );
    return ExitCodes.ok;
  } finally {
    await store.close();
  }
}

function deploymentId(text: string): DeploymentId {
  const problem = idProblem(text);
  if (problem)
    throw new ConfigError(`--${Settings.DeploymentId}`, `${problem}: give the id the service gave the deployment.`);
  return { text, numeric: /^\d+$/.test(text) };
}

function table(items: readonly ItemRecord[]): string {
  if (items.length === 0) return '';
  const rows = items.map((item) => [
    String(item.id),
    item.state,
    item.source,
    item.via,
    item.deliveryId,
    item.key,
    item.status,
    item.serviceId ?? '-',
    (item.error ?? item.note ?? '').replace(/[\p{Cc}]/gu, ' '),
  ]);
  const head = ['ID', 'STATE', 'SOURCE', 'VIA', 'DELIVERY', 'KEY', 'STATUS', 'SERVICE-ID', 'ERROR'];
  const widths = head.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] as string).length)),
  );
  const line = (row: string[]) =>
    row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] as number))).join('  ');
  return `${[head, ...rows].map(line).join('\n')}\n`;
}
