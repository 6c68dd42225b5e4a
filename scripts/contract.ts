import { runContractCli } from '../contracts/cli/run-contract-cli.js';

// A signal must still run the 'exit' handler that kills Prism.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

process.exitCode = await runContractCli(process.argv.slice(2), {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  env: process.env,
});
