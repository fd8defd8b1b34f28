// A SettingSource over a plain record, named as the action names its inputs: for the core's tables.
import type { SettingSource } from '../../src/core/settings.ts';

export function sourceOf(
  values: Record<string, string>,
  emptyKey: ReturnType<SettingSource['emptyKey']> = { problem: 'is empty. Set it from a secret.' },
): SettingSource {
  return {
    get: (name) => values[name] ?? '',
    setting: (...names) => `Input ${names.map((name) => `'${name}'`).join(' or ')}`,
    assignment: (name, value) => (value === undefined ? `\`${name}\`` : `\`${name}: ${value}\``),
    emptyKey: () => emptyKey,
  };
}
