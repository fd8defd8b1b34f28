// The renderer of test/receiver/helpers/go-template.ts holds to Go's text/template and sprig for the
// constructs the shipped Argo CD template uses. Each expectation is Go's (exec.go's rules, and the
// cases of Go's own exec_test.go named beside them), so the renderer cannot agree with itself only.
import { describe, expect, it } from 'vitest';
import { goJson, renderGoTemplate, TemplateError } from './helpers/go-template.ts';

const data = { MSI: { one: '1', nil: null, list: ['a'] }, app: { metadata: { name: 'guestbook' } } };

describe('the Go template renderer', () => {
  it('prints a missing map entry as <no value>, which is no JSON (exec_test.go "map .NO")', () => {
    expect(renderGoTemplate('{{.MSI.NO}}', data)).toBe('<no value>');
    expect(renderGoTemplate('{"name": "{{ .app.metadata.namespace }}"}', data)).toBe('{"name": "<no value>"}');
    // A chain past a missing entry is missing too, not an error (missingkey=default, as Argo CD parses).
    expect(renderGoTemplate('{{ .MSI.NO.deeper }}', data)).toBe('<no value>');
  });

  it('hands toJson nil for a missing entry, anywhere in the chain: null (sprig toJson is json.Marshal)', () => {
    expect(renderGoTemplate('{{ toJson .MSI.NO }}', data)).toBe('null');
    expect(renderGoTemplate('{{ .MSI.NO.deeper | toJson }}', data)).toBe('null');
    expect(renderGoTemplate('{{ toJson .MSI.one }}', data)).toBe('"1"');
    expect(renderGoTemplate('{{ toJson .MSI.nil }}', data)).toBe('null');
  });

  it('fails where Go fails: a field of a null or of a value that is no map', () => {
    expect(() => renderGoTemplate('{{ toJson .MSI.nil.x }}', data)).toThrow(/nil pointer evaluating interface \{\}\.x/);
    expect(() => renderGoTemplate('{{ toJson .MSI.one.x }}', data)).toThrow(/can't evaluate field x/);
    expect(() => renderGoTemplate('{{ toJson .MSI.list.x }}', data)).toThrow(/can't evaluate field x/);
  });

  it('takes sprig\'s get as the entry, or "" where there is none, a missing map being a nil map', () => {
    expect(renderGoTemplate('{{ get .MSI "one" | toJson }}', data)).toBe('"1"');
    expect(renderGoTemplate('{{ get .MSI "none" | toJson }}', data)).toBe('""');
    expect(renderGoTemplate('{{ get .MSI.NO "none" | toJson }}', data)).toBe('""');
    expect(() => renderGoTemplate('{{ get .MSI.one "x" | toJson }}', data)).toThrow(TemplateError);
  });

  it("writes JSON as Go's json.Marshal: sorted keys, HTML characters and line separators escaped", () => {
    expect(goJson({ b: 1, a: ['<x>', '&', '\u2028', 'é', '"\\\n'] })).toBe(
      '{"a":["\\u003cx\\u003e","\\u0026","\\u2028","é","\\"\\\\\\n"],"b":1}',
    );
  });

  it('refuses any construct it does not know, so that the template cannot outgrow it', () => {
    expect(() => renderGoTemplate('{{ .MSI.one | upper }}', data)).toThrow(TemplateError);
    expect(() => renderGoTemplate('{{- toJson .MSI.one }}', data)).toThrow(TemplateError);
    expect(() => renderGoTemplate('{{ if .MSI }}x{{ end }}', data)).toThrow(TemplateError);
  });
});
