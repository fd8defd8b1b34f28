// The contract of src/deps/actions-core.ts with @actions/core: core imports from
// @actions/http-client and @actions/exec exactly what the stand-ins export (src/tsconfig.json's
// `paths` maps those packages to them), the real packages have what the stand-ins forward to, and
// core uses `crypto` only on a call, never at load (else its stand-in gains nothing). Every failure
// names the file to update.
import { existsSync, readdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as standIns from '../../src/deps/actions-core.ts';
import { ROOT } from '../helpers/run-action.ts';
import { esmImports, memberUses, parseJs } from './source.ts';

const UPDATE = '@actions/core changed shape: update src/deps/actions-core.ts';
const CORE = join(ROOT, 'node_modules', '@actions', 'core', 'lib');
const core = readdirSync(CORE)
  .filter((name) => name.endsWith('.js'))
  .sort()
  .map((name) => ({ name, source: parseJs(join(CORE, name)) }));
const ALIASED = ['@actions/exec', '@actions/http-client'];

/** What core uses of `specifier`: its named imports, and what it reads off a namespace import. */
function usedOf(specifier: string): string[] {
  return core
    .flatMap(({ source }) =>
      esmImports(source)
        .filter((imported) => imported.specifier === specifier)
        .flatMap(({ named, local }) => [...named, ...(local ? memberUses(source, local).map(({ name }) => name) : [])]),
    )
    .filter((name, index, all) => all.indexOf(name) === index)
    .sort();
}

describe('@actions/core imports what the stand-ins export', () => {
  it('the @actions packages it imports are the ones src/tsconfig.json aliases, and one file with no imports', () => {
    const specifiers = core.flatMap(({ source }) =>
      esmImports(source)
        .map(({ specifier }) => specifier)
        .filter((specifier) => specifier.startsWith('@actions/')),
    );
    const { config } = ts.readConfigFile(join(ROOT, 'src', 'tsconfig.json'), (path) => ts.sys.readFile(path)) as {
      config: { compilerOptions: { paths: Record<string, string[]> } };
    };
    const auth = parseJs(join(ROOT, 'node_modules', '@actions', 'http-client', 'lib', 'auth.js'));

    expect([...new Set(specifiers)].sort(), `${UPDATE} (and the paths of src/tsconfig.json)`).toEqual([
      ...ALIASED,
      '@actions/http-client/lib/auth',
    ]);
    expect(config.compilerOptions.paths).toEqual(
      Object.fromEntries(ALIASED.map((name) => [name, ['./deps/actions-core.ts']])),
    );
    // Bundled as it is: it must stay a file of classes that loads nothing.
    expect(esmImports(auth), `${UPDATE}: @actions/http-client/lib/auth now imports more`).toEqual([]);
  });

  it('exactly the names the stand-ins export', () => {
    const used = ALIASED.flatMap(usedOf).sort();
    const exported = Object.keys(standIns)
      .filter((name) => name !== 'coreLazyBuiltins')
      .sort();

    expect(used, `${UPDATE}: core uses other names of @actions/http-client or @actions/exec`).toEqual(exported);
    expect(usedOf('@actions/http-client')).toEqual(['HttpClient']);
    expect(usedOf('@actions/exec')).toEqual(['getExecOutput']);
  });

  it('calls only methods of HttpClient that the stand-in forwards, and the real client has them all', async () => {
    const oidc = core.find(({ name }) => name === 'oidc-utils.js')?.source as ts.SourceFile;
    const called = memberUses(oidc, 'httpclient').map(({ name }) => name);
    const forwarded = Object.getOwnPropertyNames(standIns.HttpClient.prototype).filter(
      (name) => name !== 'constructor',
    );
    const real = await import('../../node_modules/@actions/http-client/lib/index.js');
    const missing = forwarded.filter(
      (name) => typeof (real.HttpClient.prototype as unknown as Record<string, unknown>)[name] !== 'function',
    );

    expect(called, `${UPDATE}: core calls other methods of its HttpClient`).toEqual(['getJson']);
    expect(forwarded).toEqual(expect.arrayContaining(called));
    expect(missing, `${UPDATE}: the real HttpClient lost methods the stand-in forwards`).toEqual([]);
  });

  it('the real packages the stand-ins load by file are the copies core resolves', () => {
    const nested = ALIASED.filter((name) =>
      existsSync(join(ROOT, 'node_modules', '@actions', 'core', 'node_modules', name)),
    );

    expect(nested, `${UPDATE}: core has its own copy now; point the stand-ins' imports at it`).toEqual([]);
  });

  it('the real @actions/exec exports what the stand-in forwards', async () => {
    const real = await import('../../node_modules/@actions/exec/lib/exec.js');

    expect(typeof real.getExecOutput, `${UPDATE}: @actions/exec has no getExecOutput`).toBe('function');
  });
});

describe('the stand-ins load the real packages on first use', () => {
  it("HttpClient.getJson answers as the real client's", async () => {
    const server = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"value":"token-1"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
    const real = await import('../../node_modules/@actions/http-client/lib/index.js');
    try {
      const ours = await new standIns.HttpClient('actions/oidc-client').getJson(url);
      const theirs = await new real.HttpClient('actions/oidc-client').getJson<{ value: string }>(url);

      expect(ours).toEqual(theirs);
      expect(ours.statusCode).toBe(200);
      expect(ours.result).toEqual({ value: 'token-1' });
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });

  it('getExecOutput runs the command', async () => {
    const result = await standIns.getExecOutput(process.execPath, ['-e', 'process.stdout.write("hi")'], {
      silent: true,
    });

    expect(result).toEqual({ exitCode: 0, stdout: 'hi', stderr: '' });
  });
});

describe('what @actions/core does with crypto (the stand-in of src/deps/actions-core.ts)', () => {
  it('only file-command.js imports it, as `crypto`, and uses it only on a call', () => {
    const imports = core.flatMap(({ name, source }) =>
      esmImports(source)
        .filter(({ specifier }) => /^(node:)?crypto$/.test(specifier))
        .map(({ specifier, named, local }) => ({
          name,
          specifier,
          named,
          uses: local ? memberUses(source, local) : [],
        })),
    );

    expect(imports, `${UPDATE}: core uses crypto otherwise, or at load (the stand-in would gain nothing)`).toEqual([
      { name: 'file-command.js', specifier: 'crypto', named: [], uses: [{ name: 'randomUUID', atLoad: false }] },
    ]);
    expect(Object.keys(standIns.coreLazyBuiltins()), `${UPDATE}: ncc's externals match the name core requires`).toEqual(
      ['crypto'],
    );
  });
});
