// How many bytes the anonymous quota store holds at its bound (10,000 full-length IPv6 addresses).
// Run: node --expose-gc --import tsx test/robustness/measure-quota-memory.ts
// A measurement, not a test: heap figures vary by Node version, so no test asserts them.
import { AccessControl } from '../../mocks/domain/access.js';
import { DEFAULT_BAN_POLICY } from '../../mocks/domain/ban.js';
import { DEFAULT_KEYS } from '../../mocks/domain/plans.js';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function heapAfterGc(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

const clock = {
  nowMs: Date.UTC(2026, 10, 22),
  now() {
    return this.nowMs;
  },
};
const control = new AccessControl({ keys: DEFAULT_KEYS, clock, ban: DEFAULT_BAN_POLICY, anonymousCapacity: 10_000 });
const before = heapAfterGc();
for (let n = 0; n < 100_000; n++) {
  clock.nowMs += 800;
  control.check(
    null,
    `2001:0db8:${(n >>> 16).toString(16).padStart(4, '0')}:${(n & 0xffff).toString(16).padStart(4, '0')}:0000:0000:0000:0001`,
  );
}
const held = heapAfterGc() - before;
const { anonymous } = control.trackedSubjects;
process.stdout.write(
  `${anonymous} anonymous buckets after 100,000 addresses: ${(held / 1024 / 1024).toFixed(2)} MiB, ${Math.round(held / anonymous)} bytes each\n`,
);
