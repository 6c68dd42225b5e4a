// `npm run nightly`: what is too slow for every push but must keep working. The contract suite against
// the standalone fake as a live URL with the free key (60 requests a minute): real waits for quota
// windows, the quota plan, --max-minutes. About four minutes, nearly all of it waiting.
// Ends with "N passed, N failed" (the checks) and exits 1 when a check failed or coverage fell short.
import { readFile } from 'node:fs/promises';
import { runContractCli } from '../contracts/cli/run-contract-cli.js';
import type { ContractReport } from '../contracts/report/suite-report.js';
import { startFakeServer } from '../mocks/server/index.js';

const REPORT = 'reports/nightly-contract.json';
// The coverage a free key reaches (every status but the 429s of other operations and the retired 410).
const MIN_COVERAGE = 80;

const server = await startFakeServer({ port: 0 });
let exitCode: number;
try {
  exitCode = await runContractCli(
    [
      '--target',
      server.baseUrl,
      '--api-key',
      'free-test-key',
      '--allow',
      'writes,quota',
      '--max-minutes',
      '6',
      '--min-coverage',
      String(MIN_COVERAGE),
      '--json',
      REPORT,
    ],
    {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
      env: process.env,
      command: 'npm run nightly',
    },
  );
} finally {
  await server.close();
}
const report = JSON.parse(await readFile(REPORT, 'utf8').catch(() => '{"targets":[]}')) as ContractReport;
const summary = report.targets[0]?.summary;
console.log(
  `${summary?.passed ?? 0} passed, ${(summary?.failed ?? 0) + (exitCode === 0 ? 0 : summary?.failed ? 0 : 1)} failed`,
);
process.exitCode = exitCode;
