import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';

/** Runs a printed curl in bash, as a developer would paste it (the key in its variable), and reads the status it got. */
export async function statusOfCurl(curl: string, apiKey = 'free-test-key'): Promise<number> {
  const child = spawn('bash', ['-c', `${curl} -s -o /dev/null -w '%{http_code}' --max-time 10`], {
    env: { ...process.env, PETSTORE_API_KEY: apiKey },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await once(child, 'close');
  return Number(out);
}

/** What a printed command writes when run in bash (the key in its variable), whatever its exit status (`timeout` ends a read). */
export function outputOfBash(command: string, apiKey = 'free-test-key'): Promise<string> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', command], { env: { ...process.env, PETSTORE_API_KEY: apiKey } }, (_error, stdout) =>
      resolve(stdout),
    );
  });
}
