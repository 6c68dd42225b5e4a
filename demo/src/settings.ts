// Replaced at build time by demo/bundle/build-demo-page.ts (esbuild `define`).
declare const __PETSTORE_API__: string;

/** What the demo page runs against, and as whom. */
export interface DemoSettings {
  /** `'fake'`: the fake in this page's service worker, at `/v1`. Otherwise the base URL of a real service. */
  api: 'fake' | string;
  /** The API key sent as `Authorization: Bearer <key>`; with the fake, it picks the plan. */
  apiKey: string;
  /** With the fake only: a per-minute limit for `apiKey` (registered as an enterprise key), to see a 429 quickly. */
  perMinute?: number;
  /** With the fake only: keep categories across reloads (in localStorage). */
  persist: boolean;
}

/**
 * Reads the settings: the backend from the build, the rest from the page's query string,
 * e.g. `?key=pro-test-key`, `?perMinute=3`, `?persist=0`.
 * @example readDemoSettings(location.search)
 */
export function readDemoSettings(search: string): DemoSettings {
  const query = new URLSearchParams(search);
  const perMinute = Number(query.get('perMinute'));
  return {
    api: __PETSTORE_API__,
    apiKey: query.get('key') || 'free-test-key',
    ...(Number.isSafeInteger(perMinute) && perMinute > 0 ? { perMinute } : {}),
    persist: query.get('persist') !== '0',
  };
}

/** The base URL the client calls: the fake answers `/v1` on the page's own origin. */
export function apiBaseUrl(settings: DemoSettings, pageUrl: string): string {
  return settings.api === 'fake' ? new URL('/v1', pageUrl).href : settings.api.replace(/\/+$/, '');
}
