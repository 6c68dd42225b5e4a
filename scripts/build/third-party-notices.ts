import type { Metafile } from 'esbuild';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** `node_modules/@scope/name/...` or `node_modules/name/...` to the package folder, innermost first. */
function packageDirOf(input: string): string | undefined {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1];
}

/**
 * The licence of every package the bundles carry, for dist/THIRD-PARTY-LICENSES.txt: the MIT and ISC
 * licences of what we inline ask for their notice to travel with the code.
 */
export async function thirdPartyNotices(metafiles: readonly Metafile[], root: string): Promise<string> {
  const dirs = new Set(
    metafiles.flatMap((metafile) => Object.keys(metafile.inputs).flatMap((input) => packageDirOf(input) ?? [])),
  );
  const notices: string[] = [];
  for (const dir of [...dirs].sort()) {
    const manifest = JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      license?: string;
    };
    const licenceFile = (await readdir(join(root, dir))).find((file) => /^(licen[cs]e|copying)/i.test(file));
    const text = licenceFile
      ? await readFile(join(root, dir, licenceFile), 'utf8')
      : `License: ${manifest.license ?? 'see the package'}`;
    notices.push(`${manifest.name}@${manifest.version} (${manifest.license ?? 'unknown'})\n\n${text.trim()}\n`);
  }
  return `Packages bundled into dist/, with their licences.\n\n${notices.join(`\n${'-'.repeat(72)}\n\n`)}`;
}
