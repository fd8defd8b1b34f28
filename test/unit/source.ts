// A SettingSource over a plain record, named as the action names its inputs: for the core's tables.
import { ACTION_WORDS } from '../../src/action/words.ts';
import type { SettingSource } from '../../src/core/settings.ts';

export function sourceOf(
  values: Record<string, string>,
  emptyKey: ReturnType<SettingSource['emptyKey']> = { problem: 'is empty. Set it from a secret.' },
): SettingSource {
  return {
    get: (name) => values[name] ?? '',
    words: ACTION_WORDS,
    emptyKey: () => emptyKey,
  };
}
