import { describeContractSuite } from './jest/describe-contract-suite.js';
import { PRISM_CAPABILITIES, PRISM_LACKING, startPrismTarget } from './targets/prism-target.js';

// Every check of the registry against Prism mocking the same spec; what Prism cannot do is skipped, with why.
await describeContractSuite({
  title: 'Prism',
  capabilities: PRISM_CAPABILITIES,
  lacking: PRISM_LACKING,
  start: startPrismTarget,
});
