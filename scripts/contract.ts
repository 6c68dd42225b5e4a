import { commandName } from './command-name.js';
import { runContractCli } from '../contracts/cli/run-contract-cli.js';
import { dropOutputOnClosedPipe } from './closed-pipe.js';

dropOutputOnClosedPipe();

// The first signal stops a `watch` or a suite run (it then writes every report asked for); `replay`, or
// a second signal, exits at once, still running the 'exit' handler that kills Prism.
let stopWatching: () => void = () => undefined;
const stop = new Promise<void>((resolve) => (stopWatching = resolve));
const watching = process.argv[2] !== 'replay';
let signals = 0;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    signals += 1;
    if (!watching || signals > 1) process.exit(130);
    stopWatching();
  });
}

process.exitCode = await runContractCli(
  process.argv.slice(2),
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    command: commandName(process.env, 'petstore-contract', 'contract'),
  },
  stop,
);
