import { PROVIDER_KEYS, type ProviderKey } from '../config';
import { startChainflipSimulator } from './chainflip/simulator';
import { startLifiSimulator } from './lifi/simulator';
import { startRelaySimulator } from './relay/simulator';
import type { RunningSimulator, SimulatorOptions } from './simulator-kit';
import { startThorchainSimulator } from './thorchain/simulator';

const STARTERS: Record<ProviderKey, (opts: SimulatorOptions) => Promise<RunningSimulator>> = {
  THORCHAIN: startThorchainSimulator,
  RELAY: startRelaySimulator,
  CHAINFLIP: startChainflipSimulator,
  LIFI: startLifiSimulator,
};

export type Simulators = Record<ProviderKey, RunningSimulator>;

/** Every provider's simulator on loopback: fixed ports from `basePort`, or ephemeral ones when it is 0. */
export async function startSimulators({
  host = '127.0.0.1',
  basePort = 0,
  defaults,
}: {
  host?: string;
  basePort?: number;
  defaults?: SimulatorOptions['defaults'];
} = {}): Promise<Simulators> {
  const entries = await Promise.all(
    PROVIDER_KEYS.map(
      async (key, i) => [key, await STARTERS[key]({ host, port: basePort ? basePort + i : 0, defaults })] as const,
    ),
  );
  return Object.fromEntries(entries) as Simulators;
}

export async function stopSimulators(simulators: Simulators): Promise<void> {
  await Promise.all(Object.values(simulators).map((s) => s.close()));
}

/** The env entries that point every adapter at its simulator. */
export function simulatorEnv(simulators: Simulators): Record<string, string> {
  return Object.fromEntries(PROVIDER_KEYS.map((key) => [`${key}_URL`, simulators[key].url]));
}
