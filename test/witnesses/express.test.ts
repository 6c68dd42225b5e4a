/** @startsFirst a paced contract run against a live service: mostly waits for its quota windows (test/waiting-first-sequencer.js). */
import { describeWitness } from './contract-run.js';
import { startExpressService } from './express/index.js';

describeWitness('Express 5 with helmet', startExpressService);
