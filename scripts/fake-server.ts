// `npm start`: the fake as a standalone HTTP server. Exit 2 on bad flags or configuration.
import { CommanderError } from 'commander';
import { isConfigError } from '../mocks/domain/config-error.js';
import { DEFAULT_KEYS } from '../mocks/domain/plans.js';
import { FAKE_EXIT, fakeServerCommand, serverOptionsFromArgs } from '../mocks/server/cli-options.js';
import { startFakeServer } from '../mocks/server/index.js';
import { commandName } from './command-name.js';
import { dropOutputOnClosedPipe } from './closed-pipe.js';

dropOutputOnClosedPipe();

const args = process.argv.slice(2);
let options;
try {
  options = serverOptionsFromArgs(args);
} catch (error) {
  if (error instanceof CommanderError && error.code === 'commander.version') {
    process.stdout.write(`${fakeServerCommand().version()}\n`);
    process.exit(0);
  }
  if (
    error instanceof CommanderError &&
    (error.code === 'commander.helpDisplayed' || error.code === 'commander.help')
  ) {
    process.stdout.write(
      `${fakeServerCommand(commandName(process.env, 'petstore-fake', 'start')).helpInformation()}\n${FAKE_EXIT}\n`,
    );
    process.exit(0);
  }
  if (error instanceof CommanderError || isConfigError(error)) {
    process.stderr.write(
      `${(error as Error).message.replace(/^error: /, '[petstore-fake] ')}\nRun with --help for usage.\n`,
    );
    process.exit(2);
  }
  throw error;
}

const { quiet, ...serverOptions } = options;
const server = await startFakeServer({
  ...serverOptions,
  ...(!quiet && { log: (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`) }),
}).catch((error: NodeJS.ErrnoException) => {
  const store = serverOptions.redis && /Redis/.test(error.message) ? `--store: ${error.message}` : undefined;
  process.stderr.write(
    `[petstore-fake] ${store ?? `cannot listen on ${serverOptions.host}:${serverOptions.port}: ${error.code ?? error.message}`}\n`,
  );
  process.exit(2);
});

const keys = serverOptions.keys ?? DEFAULT_KEYS;
process.stdout.write(
  `Pet Store fake listening on ${server.baseUrl}\n` +
    (serverOptions.keys
      ? `API keys: ${keys.length} from ${args[args.indexOf('--keys') + 1]} (plans: ${[...new Set(keys.map((k) => k.plan))].join(', ')})\n`
      : `API keys (Authorization: Bearer <key>):\n${keys.map((k) => `  ${k.key.padEnd(22)} ${k.plan} (${k.limits.perMinute}/min, ${k.limits.perDay}/day)`).join('\n')}\n`) +
    (serverOptions.faults
      ? `Fault rules: ${serverOptions.faults.length} from ${args[args.indexOf('--faults') + 1]}\n`
      : '') +
    (serverOptions.redis
      ? `State: Redis at ${serverOptions.redis.url}, keys under "${serverOptions.redis.prefix}" (shared by every instance there)\n`
      : '') +
    (serverOptions.latency ? `Latency: ${args[args.indexOf('--latency') + 1]} ms on every answer under /v1\n` : '') +
    `Admin (test control): ${server.url}/__admin/reset, /clock, /faults, /requests, /keys/{key}[/quota|/ban|/revoke|/restore]\n`,
);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: closing\n`);
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
