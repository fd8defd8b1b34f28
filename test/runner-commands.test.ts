// The oracle's own table: what the runner runs, checked against the runner's parsing rules.
import { describe, expect, it } from 'vitest';
import { runnerCommands } from './helpers/runner-commands.ts';

describe('runnerCommands', () => {
  it('reads ::command:: lines after leading white space, in any case, with properties', () => {
    expect(runnerCommands('plain\n  ::Warning file=a%2Cb,line=3::x%0Ay%25\n::unknown::x\n::error::')).toEqual([
      { command: 'warning', properties: { file: 'a,b', line: '3' }, data: 'x\ny%' },
      { command: 'error', properties: {}, data: '' },
    ]);
  });

  it('reads the legacy ##[command] anywhere in a line', () => {
    expect(runnerCommands('text ##[add-mask]secret%5D\nno ##[nothing]')).toEqual([
      { command: 'add-mask', properties: {}, data: 'secret]' },
    ]);
  });

  it('runs nothing between ::stop-commands:: and its token, and splits lines at CR too', () => {
    const output = [
      '::stop-commands::tok123',
      '::error::hidden',
      '##[add-mask]x',
      '::TOK123::',
      '::debug::a\r::error::b',
    ].join('\n');
    expect(runnerCommands(output)).toEqual([
      { command: 'debug', properties: {}, data: 'a' },
      { command: 'error', properties: {}, data: 'b' },
    ]);
  });
});
