// The stop signals `run` catches (src/cli/signals.ts), from an emitter standing for the process.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { listenForStopSignals, STOP_SIGNALS } from '../../src/cli/signals.ts';

describe('listenForStopSignals', () => {
  it('catches SIGINT, SIGTERM, SIGHUP and SIGBREAK; the first decides, each is told; stop() lets them go', async () => {
    const source = new EventEmitter();
    const stops = listenForStopSignals(source);
    const told: string[] = [];
    stops.onEach((signal) => told.push(signal));

    expect(source.eventNames().sort()).toEqual([...STOP_SIGNALS].sort());
    expect(stops.received).toBeUndefined();
    source.emit('SIGHUP', 'SIGHUP');
    source.emit('SIGINT', 'SIGINT');

    expect(await stops.first).toBe('SIGHUP');
    expect(stops.received).toBe('SIGHUP');
    expect(told).toEqual(['SIGHUP', 'SIGINT']);
    stops.stop();
    expect(source.eventNames()).toEqual([]);
  });

  it('listens to the process by default', () => {
    const before = process.listenerCount('SIGTERM');
    const stops = listenForStopSignals();
    expect(process.listenerCount('SIGTERM')).toBe(before + 1);
    stops.stop();
    expect(process.listenerCount('SIGTERM')).toBe(before);
  });
});
