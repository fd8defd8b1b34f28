// The stop signals `run` catches for its whole length, so that the CLI dies of none before it is done
// (it may end by one afterwards, index.ts): SIGINT, SIGTERM and SIGHUP, and on Windows SIGBREAK
// (Ctrl-Break, the second thing GitHub's and Azure's agents send). What each one means for the command and the record is run.ts's to decide.

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

export function isStopSignal(signal: string): signal is StopSignal {
  return (STOP_SIGNALS as readonly string[]).includes(signal);
}

/** Where signals come from: the process, or in tests an emitter of their own. */
export interface SignalSource {
  on(signal: StopSignal, listener: (signal: StopSignal) => void): unknown;
  removeListener(signal: StopSignal, listener: (signal: StopSignal) => void): unknown;
}

export interface StopSignals {
  /** The first stop signal received, once there is one. */
  readonly received: StopSignal | undefined;
  /** Settles when the first stop signal is received. */
  readonly first: Promise<StopSignal>;
  /** Calls `listener` for every stop signal received from now on. */
  onEach(listener: (signal: StopSignal) => void): void;
  /** Stops catching them. */
  stop(): void;
}

export function listenForStopSignals(source: SignalSource = process): StopSignals {
  const listeners: ((signal: StopSignal) => void)[] = [];
  let received: StopSignal | undefined;
  let resolveFirst: (signal: StopSignal) => void = () => undefined;
  const first = new Promise<StopSignal>((resolve) => (resolveFirst = resolve));
  function handle(signal: StopSignal) {
    received ??= signal;
    resolveFirst(signal);
    for (const listener of listeners) listener(signal);
  }
  for (const signal of STOP_SIGNALS) source.on(signal, handle);
  return {
    get received() {
      return received;
    },
    first,
    onEach: (listener) => void listeners.push(listener),
    stop() {
      for (const signal of STOP_SIGNALS) source.removeListener(signal, handle);
    },
  };
}
