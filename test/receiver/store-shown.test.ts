// A PostgreSQL URL as logs and messages show it: whatever place pg reads a password from (the user
// information, a `password` or `sslpassword` query parameter, its name spelled with percent-escapes),
// the password never shows, in the URL shown nor in an error that echoes the URL.
import fc from 'fast-check';
import { parse } from 'pg-connection-string';
import { describe, expect, it } from 'vitest';
import { describe as describePgError } from '../../src/receiver/store/postgres-connection.ts';
import { hideCredentials, shownStore } from '../../src/receiver/store/shown.ts';

/** A password: a mark no other part of the URL holds, then anything printable (URL syntax, `%`, `@`, non-ASCII). */
const password = fc
  .string({
    unit: fc.oneof(
      fc.constantFrom('@', ':', '/', '?', '#', '%', '&', '=', '+', ' '),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    ),
  })
  .map((tail) => `Zq${tail.replace(/[\ud800-\udfff]/g, 'x')}`);

/** Where pg reads it from, as a URL that puts it there. */
const place = fc.constantFrom(
  (secret: string) => `postgres://ana:${encodeURIComponent(secret)}@db.example:5432/app?sslmode=verify-full`,
  (secret: string) => `postgresql://ana@db.example/app?password=${encodeURIComponent(secret)}`,
  (secret: string) => `postgres://db.example/app?application_name=rd&password=${encodeURIComponent(secret)}&x=1`,
  (secret: string) => `postgres://db.example/app?pass%77ord=${encodeURIComponent(secret)}`,
  (secret: string) => `postgres://db.example/app?%70assword=${encodeURIComponent(secret)}#part`,
  (secret: string) => `postgres://ana@db.example/app?sslpassword=${encodeURIComponent(secret)}&sslmode=verify-full`,
  (secret: string) => `postgres:///app?host=/run/postgresql&password=${encodeURIComponent(secret)}`,
);

describe('a PostgreSQL URL shown', () => {
  it('never shows a password pg would read from it, in the URL nor in an error echoing it', () => {
    fc.assert(
      fc.property(password, place, (secret, put) => {
        const url = put(secret);
        const read = parse(url);
        // The place is one pg really reads.
        expect([read.password, (read as Record<string, unknown>).sslpassword]).toContain(secret);
        const outputs = [
          shownStore(url),
          describePgError(new Error(`could not connect with ${url} (password ${secret})`), url),
          hideCredentials(`${secret} ${encodeURIComponent(secret)} ${url}`, url),
        ];
        for (const output of outputs) {
          expect(output).not.toContain(secret);
          expect(output).not.toContain(encodeURIComponent(secret));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('shows the rest as it is, and nothing of a URL pg cannot read', () => {
    expect(shownStore('postgres://h/db?password=hunter2&sslmode=require')).toBe(
      'postgres://h/db?password=***&sslmode=require',
    );
    expect(shownStore('postgres://h/db?sslpassword=hunter2')).toBe('postgres://h/db?sslpassword=***');
    expect(shownStore('postgres://h/db?pass%77ord=hunter2')).toBe('postgres://h/db?pass%77ord=***');
    expect(shownStore('postgres://u:p?w@h/db')).toBe('postgres://*** (not a URL pg can read)');
    expect(describePgError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), 'postgres://h/db')).toBe(
      'refused (ECONNREFUSED)',
    );
  });
});
