import { loadConfig } from '../config';
import { startSimulators, stopSimulators } from './simulators';

/** The simulated upstreams of the running product (PROVIDERS_MODE=simulated). */
const config = loadConfig();
const simulators = await startSimulators({ host: config.simulatorHost, basePort: config.simulatorBasePort });
for (const sim of Object.values(simulators)) console.log(`[simulators] ${sim.name} on ${sim.url}`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void stopSimulators(simulators).then(() => process.exit(0)));
}
