import { runService } from '../lifecycle';
import { startSimulators, stopSimulators } from './simulators';

/** The simulated upstreams of the running product (PROVIDERS_MODE=simulated). */
await runService('simulators', async (config) => {
  const simulators = await startSimulators({
    host: config.simulatorHost,
    basePort: config.simulatorBasePort,
    defaults: { autoDepositMs: config.simulatorAutoDepositMs ?? null },
  });
  for (const sim of Object.values(simulators)) console.log(`[simulators] ${sim.name} on ${sim.url}`);
  return () => stopSimulators(simulators);
});
