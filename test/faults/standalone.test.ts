import { describeFaultControls } from './fault-scenarios.js';
import { startStandaloneHost } from './standalone-host.js';

describeFaultControls('standalone server (/__admin)', (config) => startStandaloneHost(config));
