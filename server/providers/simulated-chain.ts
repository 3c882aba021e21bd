import type { AppContext } from '../context';
import type { ProviderKey } from './keys';
import { providerBaseUrl } from './registry';

const BROADCAST_TIMEOUT_MS = 1_000;

/**
 * Simulated mode only. Live, a client's wallet broadcasts its deposit to a chain the provider watches;
 * offline there is no chain, so the provider's simulator plays it: the hash a client tracks is handed to
 * it as a deposit the chain saw. The simulator takes it only for a swap still waiting for its deposit.
 * Best effort: a simulator that does not answer leaves the swap waiting, as an unseen deposit would.
 */
export async function broadcastToSimulatedChain(
  ctx: AppContext,
  provider: ProviderKey,
  trackingContext: Record<string, unknown>,
  hash: string,
): Promise<void> {
  if (ctx.config.providersMode !== 'simulated') return;
  try {
    const response = await fetch(`${providerBaseUrl(ctx.config, provider)}/__sim/deposits`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hash, context: trackingContext }),
      signal: AbortSignal.timeout(BROADCAST_TIMEOUT_MS),
      redirect: 'error',
    });
    await response.body?.cancel();
  } catch (error) {
    ctx.log.debug({ err: error, provider }, 'the simulated chain did not take a deposit');
  }
}
