import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverOptionsFromArgs } from './cli-options.js';

const dir = mkdtempSync(join(tmpdir(), 'fake-cli-'));
function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('npm start flags', () => {
  it('reads keys and seed files and the other flags', () => {
    const options = serverOptionsFromArgs([
      '--port',
      '0',
      '--keys',
      file('keys.json', '[{"key":"big","plan":"enterprise","perMinute":100000}]'),
      '--seed',
      file('seed.json', '{"categories":[{"id":7,"name":"ferret"}]}'),
      '--ban-threshold',
      '3',
      '--ban-seconds',
      '60',
      '--pets-sunset',
      '2030-01-01',
      '--admin-token',
      't',
      '--quiet',
    ]);
    expect(options).toMatchObject({
      port: 0,
      keys: [{ key: 'big', plan: 'enterprise', limits: { perMinute: 100_000, perDay: 1_000_000 } }],
      seed: { categories: [{ id: 7, name: 'ferret' }] },
      ban: { threshold: 3, seconds: 60 },
      petsSunset: new Date('2030-01-01'),
      adminToken: 't',
      quiet: true,
    });
    expect(serverOptionsFromArgs(['--empty']).seed).toEqual({ categories: [], pets: [], orders: [] });
  });

  it('reads a faults file and a latency range', () => {
    const options = serverOptionsFromArgs([
      '--faults',
      file(
        'faults.json',
        '[{"id":"slow","effect":{"delayMs":[100,900]}},{"match":{"path":"/store/orders"},"effect":{"status":503}}]',
      ),
      '--latency',
      '200-1500',
    ]);
    expect(options.faults).toEqual([
      { id: 'slow', effect: { delayMs: [100, 900] } },
      { match: { path: '/store/orders' }, effect: { status: 503 } },
    ]);
    expect(options.latency).toEqual([200, 1500]);
    expect(serverOptionsFromArgs(['--latency', '300']).latency).toEqual([300, 300]);
  });

  it.each([
    [['--keys', join(dir, 'missing.json')], /missing\.json: cannot be read \(ENOENT\)/],
    [['--keys', file('bad-json.json', '[{')], /bad-json\.json: is not valid JSON/],
    [['--keys', file('gold.json', '[{"key":"k","plan":"gold"}]')], /gold\.json: \[0\]\.plan: unknown plan "gold"/],
    [
      ['--keys', file('limits.json', '[{"key":"k","plan":"pro","perDay":5}]')],
      /limits\.json: \[0\]\.perDay: custom limits are accepted only for the enterprise plan/,
    ],
    [
      ['--seed', file('seed-bad.json', '{"categories":[{"id":1,"name":"dog"},{"id":"2","name":"cat"}]}')],
      /seed-bad\.json: categories\[1\]: Category: id must be integer/,
    ],
    [['--port', '70000'], /--port.*expected an integer from 0 to 65535/],
    [['--pets-sunset', 'soon'], /--pets-sunset.*expected an ISO 8601 date/],
    [['--seed', 'x.json', '--empty'], /cannot be used with option '--empty'/],
    [
      ['--faults', file('faults-object.json', '{"effect":{"status":503}}')],
      /faults-object\.json: must be a JSON array of fault rules/,
    ],
    [
      ['--faults', file('faults-effect.json', '[{"effect":{"status":503}},{"id":"x","effect":{"explode":1}}]')],
      /faults-effect\.json: \[1\] \(rule "x"\)\.effect: must be exactly one of/,
    ],
    [
      ['--faults', file('faults-path.json', '[{"match":{"path":"categories"},"effect":{"status":503}}]')],
      /faults-path\.json: \[0\]\.match\.path: must be "\*" or a path/,
    ],
    [
      ['--faults', file('faults-probability.json', '[{"effect":{"network":"error"},"probability":1.2}]')],
      /faults-probability\.json: \[0\]\.probability: must be a number from 0 to 1/,
    ],
    [
      [
        '--faults',
        file('faults-twice.json', '[{"id":"a","effect":{"status":500}},{"id":"a","effect":{"status":502}}]'),
      ],
      /faults-twice\.json: \[1\] \(rule "a"\)\.id: another rule already has this id/,
    ],
    [['--latency', '900-100'], /--latency.*must be milliseconds, MS or MIN-MAX/],
    [['--latency', 'slow'], /--latency.*must be milliseconds/],
    [['--store', 'localhost:6379'], /--store.*expected redis:\/\/HOST:PORT\[\/DB\]/],
  ])('refuses %j with a message naming the file and entry', (args, message) => {
    expect(() => serverOptionsFromArgs(args)).toThrow(message);
  });
});

function runScript(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/fake-server.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => ({ stdout, stderr }) };
}

describe('npm start as a process', () => {
  it('stops start-up with exit 2 and the file and entry on a bad keys file', async () => {
    const run = runScript([
      '--keys',
      file('bad-plan.json', '[{"key":"k","plan":"free"},{"key":"j","plan":"platinum"}]'),
    ]);
    expect(await run.exited).toBe(2);
    expect(run.output().stderr).toContain('bad-plan.json: [1].plan: unknown plan "platinum"');
  }, 30_000);

  it('stops start-up with exit 2 naming the URL when Redis cannot be reached', async () => {
    const run = runScript(['--port', '0', '--store', 'redis://127.0.0.1:1']);
    expect(await run.exited).toBe(2);
    expect(run.output().stderr).toContain('--store: cannot reach Redis at redis://127.0.0.1:1 (connect ECONNREFUSED');
  }, 30_000);

  it('stops start-up with exit 2 naming the file, the rule and the field on a bad faults file', async () => {
    const run = runScript([
      '--faults',
      file('bad-faults.json', '[{"id":"down","effect":{"status":503},"probability":2}]'),
    ]);
    expect(await run.exited).toBe(2);
    expect(run.output().stderr).toContain(
      'bad-faults.json: [0] (rule "down").probability: must be a number from 0 to 1',
    );
  }, 30_000);

  it('prints the base URL and default keys, serves, and shuts down cleanly on SIGINT', async () => {
    const run = runScript(['--port', '0']);
    try {
      const baseUrl = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${JSON.stringify(run.output())}`)), 20_000);
        run.child.stdout.on('data', () => {
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(run.output().stdout);
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
      });
      expect(run.output().stdout).toContain('free-test-key');
      const response = await fetch(`${baseUrl}/categories`, { headers: { authorization: 'Bearer pro-test-key' } });
      expect(response.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(run.output().stdout).toMatch(/GET \/v1\/categories 200 plan=pro remaining=299/);
    } finally {
      run.child.kill('SIGINT');
    }
    expect(await run.exited).toBe(0);
    expect(run.output().stdout).toContain('SIGINT: closing');
  }, 30_000);
});
