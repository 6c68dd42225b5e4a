import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { OpenApiDocument } from './schema-registry.js';

/** Where the single source of truth lives. */
export const SPEC_PATH = fileURLToPath(new URL('./openapi.yaml', import.meta.url));

let cached: OpenApiDocument | undefined;

/**
 * Reads `spec/openapi.yaml` once per process (Node only; the browser bundle inlines it at build time).
 * @example const document = loadSpecDocument();
 */
export function loadSpecDocument(): OpenApiDocument {
  cached ??= parse(readFileSync(SPEC_PATH, 'utf8')) as OpenApiDocument;
  return cached;
}
