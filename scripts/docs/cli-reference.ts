import type { Command, Option } from 'commander';
import { CONTRACT_EXIT, contractProgram } from '../../contracts/cli/cli-options.js';
import { WATCH_EXIT, watchProgram } from '../../contracts/cli/watch-cli.js';
import { REPLAY_EXIT, replayProgram } from '../../contracts/cli/replay-cli.js';
import { checksProgram } from '../../contracts/cli/checks-cli.js';
import { FAKE_EXIT, fakeServerCommand } from '../../mocks/server/cli-options.js';

const cell = (text: string) => text.replace(/\|/g, '\\|');

function defaultOf(option: Option): string {
  if (option.envVar) return `env \`${option.envVar}\``;
  if (option.defaultValue === undefined || option.defaultValue === false) return '';
  return `\`${String(option.defaultValue)}\``;
}

function commandSection(title: string, command: Command, exit: string): string {
  const helpText = command.helpInformation();
  const usage = /^Usage: (.*)$/m.exec(helpText)?.[1] ?? command.name();
  const rows = command.options.map(
    (option) =>
      `| \`${cell(option.flags)}\`${option.mandatory ? ' (required)' : ''} | ${defaultOf(option)} | ${cell(option.description)} |`,
  );
  const args = command.registeredArguments.map(
    (argument) => `| \`${argument.name()}\` (argument) | | ${cell(argument.description)} |`,
  );
  return [
    `### ${title}`,
    '',
    `\`${usage}\``,
    '',
    command.description(),
    '',
    '| Option | Default | Meaning |',
    '|---|---|---|',
    ...args,
    ...rows,
    '| `-h, --help` | | the usage, naming the command as you ran it |',
    '',
    exit,
  ].join('\n');
}

/**
 * The CLI reference of docs/reference/cli.md, built from the commander definitions the bins parse with:
 * a flag added to a bin appears here, and the docs test fails until the page is regenerated.
 */
export function cliReferenceMarkdown(): string {
  return [
    commandSection('`petstore-fake` (`npm start --`)', fakeServerCommand(), FAKE_EXIT),
    commandSection('`petstore-contract` (`npm run contract --`)', contractProgram('petstore-contract'), CONTRACT_EXIT),
    commandSection('`petstore-contract watch`', watchProgram('petstore-contract'), WATCH_EXIT),
    commandSection('`petstore-contract replay`', replayProgram('petstore-contract'), REPLAY_EXIT),
    commandSection('`petstore-contract checks`', checksProgram('petstore-contract'), 'Exit: 0; 2 bad usage.'),
  ].join('\n\n');
}
