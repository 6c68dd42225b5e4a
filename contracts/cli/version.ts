import { readFileSync } from 'node:fs';

/**
 * The package's version, from its package.json: two folders up both from this source file
 * (contracts/cli/) and from the bundled bin (dist/bin/), so `--version` says what is installed.
 * Read when asked for (a command is being built), never at import.
 */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}
