import type { RequestHandler } from 'msw';
import { categoryHandlers } from './categories.js';
import type { FakeContext } from './context.js';
import { fallbackHandlers } from './fallback.js';
import { orderHandlers } from './orders.js';
import { petHandlers } from './pets.js';

/** Every handler of the fake, operations first and the 404/405 fallback last. */
export function createHandlers(context: FakeContext): RequestHandler[] {
  return [...categoryHandlers(context), ...petHandlers(context), ...orderHandlers(context), ...fallbackHandlers(context)];
}
