// The command lines of the receiver's commands: `serve` and `deliveries` (list, retry, resolve).
// Read as the other commands are (a flag's value is the next argument, or `--flag=VALUE`), with
// the positional words `deliveries` takes.
import { Settings, type SettingName } from '../core/constants.js';
import { quote } from '../core/text.js';
import { UsageError } from './args.js';

const ReceiverCommands = ['serve', 'deliveries'] as const;
export type ReceiverCommandName = (typeof ReceiverCommands)[number];

/** The address `serve` listens on where --listen is not given: loopback, behind the reverse proxy that terminates TLS. */
const DEFAULT_LISTEN = { host: '127.0.0.1', port: 8080 };

/** How many items `deliveries` lists where --limit is not given (a cut listing says so on stderr). */
export const DEFAULT_LIST_LIMIT = 1000;
// One listing is one string held in memory: bounded well below V8's longest string.
const MAX_LIST_LIMIT = 100_000;

const STATES = ['held', 'failed', 'pending', 'sending', 'done', 'skipped'] as const;
type ListedState = (typeof STATES)[number];

export type ReceiverArgs =
  | {
      command: 'serve';
      listen: { host: string; port: number };
      store: string | undefined;
      mapping: string | undefined;
      retryHours: number;
      catchUpSeconds: number;
      settings: Partial<Record<SettingName, string>>;
    }
  | {
      command: 'deliveries';
      action: 'list';
      store: string | undefined;
      states: ListedState[];
      json: boolean;
      limit: number;
    }
  | { command: 'deliveries'; action: 'retry'; store: string | undefined; ids: number[] }
  | { command: 'deliveries'; action: 'resolve'; store: string | undefined; id: number; deploymentId: string }
  | { command: 'deliveries'; action: 'import'; store: string | undefined; from: string };

const FLAGS: Record<ReceiverCommandName, { values: string[]; switches: string[] }> = {
  serve: {
    values: [
      'listen',
      'store',
      'mapping',
      'retry-hours',
      'catch-up-seconds',
      Settings.BaseUrl,
      Settings.TimeoutSeconds,
    ],
    switches: [Settings.AllowInsecureHttp],
  },
  deliveries: { values: ['store', 'state', 'limit', Settings.DeploymentId, 'from'], switches: ['json'] },
};

/** `serve ...`, `deliveries ...`, or `help serve`. */
export function receiverInvocation(
  argv: readonly string[],
): { receiver: ReceiverArgs } | { help: ReceiverCommandName } {
  const [first, second, ...rest] = argv;
  if (first === 'help') return { help: second as ReceiverCommandName };
  const parsed = parseReceiverArgs(first as ReceiverCommandName, second === undefined ? [] : [second, ...rest]);
  return 'help' in parsed ? parsed : { receiver: parsed };
}

export function isReceiverCommand(word: string | undefined): word is ReceiverCommandName {
  return (ReceiverCommands as readonly (string | undefined)[]).includes(word);
}

const fail = (command: ReceiverCommandName, message: string) =>
  new UsageError(message, undefined, `See \`report-deployment ${command} --help\`.`);

function parseReceiverArgs(
  command: ReceiverCommandName,
  args: readonly string[],
): ReceiverArgs | { help: ReceiverCommandName } {
  const values = new Map<string, string>();
  const words: string[] = [];
  const { values: valued, switches } = FLAGS[command];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '--help' || arg === '-h') return { help: command };
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [shown = '', ...after] = arg.split('=');
    const name = shown.slice(2);
    const inline = after.length ? after.join('=') : undefined;
    if (switches.includes(name)) {
      if (inline !== undefined) throw fail(command, `${shown} takes no value: give it alone to turn it on.`);
      values.set(name, 'true');
    } else if (valued.includes(name)) {
      const value = inline ?? args[++index];
      if (value === undefined) throw fail(command, `${shown} needs a value.`);
      values.set(name, value);
    } else if (name === Settings.ApiKey) {
      throw fail(command, `${shown} is no flag: the key is read only from DEPLOY_TRACKER_API_KEY.`);
    } else {
      throw fail(command, `unknown flag ${quote(shown)} for ${command}.`);
    }
  }
  const store = values.get('store');
  if (store === '') throw fail(command, '--store is empty: give a file path, or leave the flag out for the default.');
  return command === 'serve' ? serveArgs(values, words, store) : deliveriesArgs(values, words, store);
}

function serveArgs(values: Map<string, string>, words: string[], store: string | undefined): ReceiverArgs {
  if (words.length) throw fail('serve', `unexpected argument ${quote(words[0] as string)} (serve takes flags only).`);
  const listen = values.has('listen') ? parseListen(values.get('listen') as string) : DEFAULT_LISTEN;
  const hours = values.get('retry-hours') ?? '24';
  if (!/^\d+(\.\d+)?$/.test(hours) || Number(hours) <= 0 || Number(hours) > 24 * 30) {
    throw fail('serve', `--retry-hours must be a number of hours above 0 and at most 720, got ${quote(hours)}.`);
  }
  const catchUp = values.get('catch-up-seconds') ?? '300';
  if (!/^\d+$/.test(catchUp) || Number(catchUp) < 10 || Number(catchUp) > 86_400) {
    throw fail(
      'serve',
      `--catch-up-seconds must be a whole number of seconds from 10 to 86400 (a day), got ${quote(catchUp)}.`,
    );
  }
  const mapping = values.get('mapping');
  if (mapping === '') throw fail('serve', "--mapping is empty: give the mapping file's path, or leave the flag out.");
  const settings: Partial<Record<SettingName, string>> = {};
  for (const name of [Settings.BaseUrl, Settings.TimeoutSeconds, Settings.AllowInsecureHttp] as const) {
    const value = values.get(name);
    if (value !== undefined) settings[name] = value;
  }
  return {
    command: 'serve',
    listen,
    store,
    mapping,
    retryHours: Number(hours),
    catchUpSeconds: Number(catchUp),
    settings,
  };
}

/** HOST:PORT, [IPv6]:PORT, or :PORT (all addresses). */
function parseListen(text: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(text);
  const port = Number(match?.[3]);
  if (!match || port > 65535) {
    throw fail(
      'serve',
      `--listen must be HOST:PORT (e.g. 127.0.0.1:8080, 0.0.0.0:8080, [::]:8080), got ${quote(text)}.`,
    );
  }
  const host = match[1] ?? match[2] ?? '';
  return { host: host === '' ? '0.0.0.0' : host, port };
}

function deliveriesArgs(values: Map<string, string>, words: string[], store: string | undefined): ReceiverArgs {
  const [action = 'list', ...rest] = words;
  const ids = rest.map((word) => {
    if (!/^\d{1,15}$/.test(word))
      throw fail('deliveries', `${quote(word)} is no item id: give the ids \`report-deployment deliveries\` lists.`);
    return Number(word);
  });
  const deploymentId = values.get(Settings.DeploymentId);
  if (action !== 'resolve' && deploymentId !== undefined)
    throw fail('deliveries', '--deployment-id goes with `deliveries resolve` only.');
  if (action !== 'import' && values.has('from')) throw fail('deliveries', '--from goes with `deliveries import` only.');
  if (action === 'list') {
    if (ids.length)
      throw fail('deliveries', 'list takes no ids: `deliveries retry ID...` or `deliveries resolve ID` act on items.');
    const states = parseStates(values.get('state'));
    return { command: 'deliveries', action, store, states, json: values.has('json'), limit: parseLimit(values) };
  }
  if (values.has('json') || values.has('state') || values.has('limit'))
    throw fail('deliveries', '--state, --json and --limit go with the list only.');
  if (action === 'retry') {
    if (ids.length === 0) throw fail('deliveries', 'retry needs the id of each item to send again.');
    return { command: 'deliveries', action, store, ids };
  }
  if (action === 'resolve') {
    if (ids.length !== 1) throw fail('deliveries', 'resolve takes one item id.');
    if (!deploymentId?.trim())
      throw fail(
        'deliveries',
        'resolve needs --deployment-id N: the id the service gave the deployment that did arrive.',
      );
    return { command: 'deliveries', action, store, id: ids[0] as number, deploymentId: deploymentId.trim() };
  }
  if (action === 'import') {
    const from = values.get('from')?.trim();
    if (ids.length || !from)
      throw fail(
        'deliveries',
        'import takes --from FILE (the SQLite file of a stopped receiver) and --store postgres://... only.',
      );
    return { command: 'deliveries', action, store, from };
  }
  throw fail('deliveries', `unknown action ${quote(action)}: list (the default), retry, resolve or import.`);
}

function parseLimit(values: Map<string, string>): number {
  const text = values.get('limit');
  if (text === undefined) return DEFAULT_LIST_LIMIT;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > MAX_LIST_LIMIT)
    throw fail('deliveries', `--limit takes a number of items from 1 to ${MAX_LIST_LIMIT}, got ${quote(text)}.`);
  return Number(text);
}

function parseStates(text: string | undefined): ListedState[] {
  if (text === undefined) return ['held', 'failed'];
  if (text === 'all') return [...STATES];
  const states = text.split(',').map((word) => word.trim());
  for (const state of states) {
    if (!(STATES as readonly string[]).includes(state)) {
      throw fail(
        'deliveries',
        `--state takes held, failed, pending, sending, done, skipped (comma-separated) or all, got ${quote(state)}.`,
      );
    }
  }
  return states as ListedState[];
}
