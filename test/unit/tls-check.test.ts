// NODE_TLS_REJECT_UNAUTHORIZED: refused exactly where Node would turn certificate checks off ('0') and
// TLS is used; every other value, as Node reads it, leaves them on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/config-error.ts';
import { checkTlsVerification } from '../../src/core/tls-check.ts';

describe('checkTlsVerification', () => {
  it("refuses '0' where TLS is used, naming the variable and the safe way in", () => {
    const check = () => checkTlsVerification({ NODE_TLS_REJECT_UNAUTHORIZED: '0' }, true);
    expect(check).toThrow(ConfigError);
    expect(check).toThrow(/^Environment variable NODE_TLS_REJECT_UNAUTHORIZED is '0'.*NODE_EXTRA_CA_CERTS/);
  });

  it("any other value, or no TLS, is left alone (Node turns checks off for '0' alone)", () => {
    fc.assert(
      fc.property(fc.option(fc.string(), { nil: undefined }), fc.boolean(), (value, usesTls) => {
        fc.pre(value !== '0' || !usesTls);
        expect(() => checkTlsVerification({ NODE_TLS_REJECT_UNAUTHORIZED: value }, usesTls)).not.toThrow();
      }),
    );
  });
});
