import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { capturedIo } from '../../contracts/cli/captured-io.js';
import { runContractCli } from '../../contracts/cli/run-contract-cli.js';

/** What a witness service is started with: one key per plan the run may use. */
export const WITNESS_KEYS = [
  { key: 'witness-pro-key', plan: 'pro' },
  { key: 'witness-enterprise-key', plan: 'enterprise', perMinute: 5_000, perDay: 1_000_000 },
] as const;

/**
 * The seed of this run: `WITNESS_SEED` to replay one, else a fresh one, so CI tries another seed on
 * every run (a seed that fails a correct service is a defect of the suite, replayed with it).
 */
export const WITNESS_SEED = Number(process.env.WITNESS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/**
 * `npm run contract` against a witness, as QA runs it against staging: a pro key (its window is driven
 * to one 429 and waited out), writes and quota allowed, the seed given. Exit code and what it printed.
 */
export async function contractRunAgainst(baseUrl: string): Promise<{ code: number; printed: string }> {
  const { io, out, err } = capturedIo();
  const args = ['--target', baseUrl, '--api-key', 'witness-pro-key', '--allow', 'writes,quota'];
  const code = await runContractCli([...args, '--seed', String(WITNESS_SEED)], io);
  return { code, printed: [...out, ...err].join('\n') };
}

/** What a witness's entry point gives: where it answers, and how to stop it. */
interface Witness {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The suite against one witness, as a jest suite of its own (each witness in its own file, so their
 * waits overlap): a correct service the suite was not shaped to, written from spec/openapi.yaml alone.
 * A failure is a defect of the suite until a quoted requirement on the server says otherwise.
 */
export function describeWitness(
  stack: string,
  start: (options: { port: number; keys: typeof WITNESS_KEYS }) => Promise<Witness>,
  missing: readonly string[] = [],
): void {
  // A witness whose stack this machine lacks is a skipped test that names the install, never a pass.
  const run = missing.length === 0 ? describe : describe.skip;
  const skipped = missing.length === 0 ? '' : ` (skipped: install it with \`${missing.join(' && ')}\`)`;
  if (missing.length > 0) console.warn(`[witness] ${stack}${skipped}`);
  run(`the contract suite against a correct service on ${stack}${skipped}`, () => {
    let service: Witness | undefined;
    // A witness off Node is built and started as a process: on a busy machine that takes more than
    // jest's five seconds.
    beforeAll(async () => {
      service = await start({ port: 0, keys: WITNESS_KEYS });
    }, 180_000);
    afterAll(() => service?.close());

    it(`passes every check (seed ${WITNESS_SEED}: replay with WITNESS_SEED=${WITNESS_SEED})`, async () => {
      if (!service) throw new Error(`the ${stack} witness did not start`);
      const { code, printed } = await contractRunAgainst(service.baseUrl);
      expect({ code, printed }).toEqual({ code: 0, printed: expect.stringContaining(' 0 failed') });
    }, 600_000);
  });
}
