import { TrafficJudge } from './contracts/watch/traffic-judge.js';
const base = 'http://127.0.0.1:4000/v1';
const judge = new TrafficJudge(base);
const text = '[{"id":1,"name":"dog","description":"Dogs of every breed"},{"id":2,"name":"cat","description":"Cats of every breed"},{"id":3,"name":"rabbit","description":"Rabbits and hares"}]';
const N = Number(process.env.N ?? 40000);
const inflight: number[] = [];
let remaining = 999999999; let v = 0;
const t0 = performance.now();
for (let i = 0; i < N; i += 1) {
  while (inflight.length < 20) inflight.push(judge.sending());
  const ticket = inflight.shift()!;
  const now = Math.floor(Date.now() / 1000);
  const exchange = { request: { method: 'GET', url: `${base}/categories`, headers: { authorization: 'Bearer bench-enterprise-key', host: '127.0.0.1:4000' } }, status: 200,
    headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '1000000000', 'x-ratelimit-remaining': String(remaining--), 'x-ratelimit-reset': String(now - now % 86400 + 86400), 'ratelimit-policy': '"minute";q=1000000000;w=60, "day";q=1000000000;w=86400', ratelimit: `"day";r=${remaining};t=25553`, 'content-length': String(text.length), date: new Date().toUTCString(), 'access-control-allow-origin': '*' },
    text, json: JSON.parse(text) };
  v += judge.answered(ticket, exchange as any).length;
}
console.log('µs per exchange at 20 in flight', ((performance.now() - t0) * 1000 / N).toFixed(1), 'violations', v);
