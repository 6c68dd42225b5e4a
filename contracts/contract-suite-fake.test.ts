import { describeContractSuite } from './jest/describe-contract-suite.js';
import { FAKE_CAPABILITIES, startFakeTarget } from './targets/fake-target.js';

// Every check of the registry against the fake, started in-process on a random port.
await describeContractSuite({
  title: 'the fake',
  capabilities: FAKE_CAPABILITIES,
  lacking: {},
  start: () => startFakeTarget(),
});
