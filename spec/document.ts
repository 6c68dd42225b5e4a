import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { OpenApiDocument } from './schema-registry.js';

/** Where the single source of truth lives. */
// Through `../spec/` so that the path holds both from this file and from the bundle in dist/ that
// `npm start` runs (scripts/build-server.ts): the spec is read where it lives, never copied.
export const SPEC_PATH = fileURLToPath(new URL('../spec/openapi.yaml', import.meta.url));

let cached: OpenApiDocument | undefined;

/**
 * Reads `spec/openapi.yaml` once per process (Node only; the browser bundle inlines it at build time).
 * @example const document = loadSpecDocument();
 */
export function loadSpecDocument(): OpenApiDocument {
  cached ??= parse(readFileSync(SPEC_PATH, 'utf8')) as OpenApiDocument;
  return cached;
}
