import { writeSync } from 'node:fs';
import { describeContractSuite } from '../runner/describe-contract-suite.js';
import { descriptorFromEnvironment, EVENTS_FD_ENV, settingsFromEnvironment, type SuiteEvent } from './suite-events.js';

// Run by `npm run contract` in its own jest process (not matched by `npm test`): the target was started
// by the CLI, which reads the results streamed on the events descriptor.
const descriptor = descriptorFromEnvironment(process.env);
const settings = settingsFromEnvironment(process.env);
const eventsFd = Number(process.env[EVENTS_FD_ENV]);
const emit = (event: SuiteEvent) => {
  if (Number.isInteger(eventsFd) && eventsFd > 2) writeSync(eventsFd, `${JSON.stringify(event)}\n`);
};

describeContractSuite({
  title: descriptor.label,
  capabilities: descriptor.capabilities,
  lacking: descriptor.lacking,
  ...(settings && { settings }),
  start: async () => ({ descriptor, close: async () => undefined }),
  onResult: (result) => emit({ type: 'result', result }),
  onNote: (check, message) => emit({ type: 'note', check, message }),
  // A live target may make a check wait out rate-limit windows (Retry-After, at most five times).
  checkTimeoutMs: descriptor.paced ? 30 * 60_000 : 120_000,
});
