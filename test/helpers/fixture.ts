// A fresh fake service for each test, closed after it, and the step inputs that point at it.
import { afterEach, beforeEach } from 'vitest';
import { startFakeService, type FakeService, type FakeServiceOptions } from './fake-service.ts';

export interface ServiceFixture {
  /** This test's fake service. */
  readonly service: FakeService;
  /** Replaces it with one started with other options (ids, prefix). */
  restart: (options: FakeServiceOptions) => Promise<void>;
  /** The step's inputs for artifact 42 at this service, with `extra` over them. */
  inputs: (extra?: Record<string, string>) => Record<string, string>;
  /** `METHOD /path` of every request the service received, in order. */
  received: () => string[];
}

export function useFakeService(): ServiceFixture {
  let current: FakeService | undefined;
  beforeEach(async () => {
    current = await startFakeService();
  });
  afterEach(async () => {
    await current?.close();
  });
  const fixture: ServiceFixture = {
    get service() {
      if (!current) throw new Error('useFakeService: no service outside a test');
      return current;
    },
    restart: async (options) => {
      await current?.close();
      current = await startFakeService(options);
    },
    inputs: (extra = {}) => ({
      'api-key': fixture.service.apiKey,
      'base-url': fixture.service.url,
      'artifact-id': '42',
      ...extra,
    }),
    received: () => fixture.service.requests.map((request) => `${request.method} ${request.path}`),
  };
  return fixture;
}
