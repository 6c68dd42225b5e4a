import { startWatchProxy } from './contracts/watch/watch-proxy.js';
import { TrafficJudge } from './contracts/watch/traffic-judge.js';
const [, , variant, upstream, port] = process.argv;
if (variant === 'nojudge') (TrafficJudge.prototype as any).answered = () => [];
await startWatchProxy({ upstream: upstream!, port: Number(port) });
process.on('SIGTERM', () => process.exit(0));
