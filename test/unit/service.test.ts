import { describe, expect, it } from 'vitest';
import { describeFailure, deploymentUrl } from '../../src/service.ts';

describe('describeFailure', () => {
  it('shows a string detail as is', () => {
    expect(describeFailure(404, { detail: 'Deployment 9 not found' }, 'application/json')).toBe(
      'HTTP 404: Deployment 9 not found',
    );
  });

  it('shows a validation array one line per entry', () => {
    const detail = [
      { type: 'missing', loc: ['body', 'commitSha'], msg: 'Field required', input: {} },
      {
        type: 'value_error',
        loc: ['body'],
        msg: 'Value error, Either artifactId or artifactName must be provided',
        input: {},
      },
    ];
    expect(describeFailure(422, { detail }, 'application/json')).toBe(
      'HTTP 422:\n  body.commitSha: Field required\n  body: Value error, Either artifactId or artifactName must be provided',
    );
  });

  it('reports a body that is not JSON by its status', () => {
    expect(describeFailure(502, undefined, 'text/html; charset=utf-8')).toBe(
      'HTTP 502 (the answer is not JSON: text/html)',
    );
    expect(describeFailure(502, undefined, '')).toBe('HTTP 502 (the answer is not JSON)');
  });

  it('says when the JSON has no detail', () => {
    expect(describeFailure(500, { error: 'x' }, 'application/json')).toBe('HTTP 500 (no `detail` in the answer)');
  });
});

describe('deploymentUrl', () => {
  it('URL-encodes the id under the base path', () => {
    expect(deploymentUrl(new URL('https://t.example/api/'), 'a/b c').href).toBe(
      'https://t.example/api/deployment/a%2Fb%20c',
    );
    expect(deploymentUrl(new URL('https://t.example/'), 7).href).toBe('https://t.example/deployment/7');
  });
});
