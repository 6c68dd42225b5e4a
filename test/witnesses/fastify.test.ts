/** @startsFirst a paced contract run against a live service: mostly waits for its quota windows (test/waiting-first-sequencer.js). */
import { describeWitness } from './contract-run.js';
import { startFastifyService } from './fastify/index.js';

describeWitness('Fastify 5', startFastifyService);
