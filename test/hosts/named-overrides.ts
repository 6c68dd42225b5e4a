import { override, type Override } from '../../mocks/index.js';

/** Every host of the test runs on this frozen instant, so the rate-limit headers' seconds agree to the digit. */
export const FROZEN_CLOCK = { now: () => Date.UTC(2026, 10, 25, 12, 0, 0) };

/**
 * Overrides the host-equivalence test installs by name: a page cannot be handed a function, so every host
 * builds them from this one module (the browser page bundles it).
 */
export const NAMED_OVERRIDES = {
  /** A pet the fake does not have, typed by the spec, after auth (so with the fake's headers). */
  ghostPet: () =>
    override.get('/pets/{petId}', ({ params, response }) =>
      response(200).json({ id: Number(params.petId), name: 'Ghost', status: 'sold' }),
    ),
  /** Every list of orders refused before auth, as a gateway in front would. */
  ordersDown: () =>
    override.get(
      '/store/orders',
      ({ response }) => response(401).json({ code: 'invalid_api_key', message: 'Gateway says no.', status: 401 }),
      { beforeAuth: true },
    ),
} satisfies Record<string, () => Override>;

export type OverrideName = keyof typeof NAMED_OVERRIDES;
