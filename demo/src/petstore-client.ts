import type { components } from '../../spec/openapi.js';

export type Category = components['schemas']['Category'];
export type NewCategory = components['schemas']['NewCategory'];
export type ApiError = components['schemas']['Error'];

/** One call's outcome, with the quota the response reported. */
export type ApiResult<T> =
  | { ok: true; data: T; remaining: number | undefined }
  | { ok: false; error: ApiError; remaining: number | undefined; retryAfter?: number };

/** The few operations the demo uses. The same code runs against the fake and a real service. */
export interface PetStoreClient {
  listCategories(): Promise<ApiResult<Category[]>>;
  createCategory(category: NewCategory): Promise<ApiResult<Category>>;
}

/**
 * A fetch-based client for `baseUrl` (ending in `/v1`), sending `apiKey` as the bearer token.
 * @example await createPetStoreClient({ baseUrl: '/v1', apiKey: 'free-test-key' }).listCategories()
 */
export function createPetStoreClient(options: { baseUrl: string; apiKey: string }): PetStoreClient {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> => {
    const url = `${options.baseUrl}${path}`;
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          Authorization: `Bearer ${options.apiKey}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      // No HTTP answer at all (offline, CORS, wrong base URL): say so in the same shape as an API error.
      const reason = error instanceof Error ? error.message : String(error);
      return {
        ok: false,
        error: { code: 'network_error', message: `${method} ${url} failed: ${reason}`, status: 0 },
        remaining: undefined,
      };
    }
    const remaining = rateLimitRemaining(response);
    const payload: unknown = await response.json().catch(() => undefined);
    if (response.ok && payload !== undefined) return { ok: true, data: payload as T, remaining };
    if (response.ok) {
      // A success the page cannot read is a failure to show, not an empty list.
      const error = {
        code: 'unexpected_response',
        message: `${response.status} answer whose body is not JSON`,
        status: response.status,
      };
      return { ok: false, error, remaining };
    }
    const retryAfter = Number(response.headers.get('Retry-After') ?? Number.NaN);
    return {
      ok: false,
      error: asApiError(payload, response),
      remaining,
      ...(Number.isFinite(retryAfter) && { retryAfter }),
    };
  };
  return {
    listCategories: () => call('GET', '/categories'),
    createCategory: (category) => call('POST', '/categories', category),
  };
}

/** The header as a count; undefined when absent or not a number (the page then says it does not know). */
function rateLimitRemaining(response: Response): number | undefined {
  const value = response.headers.get('X-RateLimit-Remaining')?.trim();
  const count = value ? Number(value) : Number.NaN;
  return Number.isSafeInteger(count) && count >= 0 ? count : undefined;
}

/** The spec's `Error` body, or one made up from the status when a server sent something else. */
function asApiError(payload: unknown, response: Response): ApiError {
  const candidate = payload as Partial<ApiError> | undefined;
  if (typeof candidate?.message === 'string' && typeof candidate.code === 'string') return candidate as ApiError;
  return {
    code: 'unexpected_response',
    message: `${response.status} ${response.statusText || 'error'} without an Error body`,
    status: response.status,
  };
}
