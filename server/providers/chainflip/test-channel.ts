import { routeAsset, testSignal } from '../../../test/support/route-assets';
import type { ProviderAdapter, StatusInput } from '../types';
import { createChainflipAdapter } from './adapter';

export const ETH = routeAsset('ethereum', 'ETH');
export const BTC = routeAsset('bitcoin', 'BTC');
export const EVM_WALLET = '0x2afba9278e30ccf6a6ceb3a8b6e336b70068f045';
export const BTC_WALLET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
export const ONE_ETH = 10n ** 18n;
export const ethToBtcQuote = { src: ETH, dst: BTC, amountBase: ONE_ETH, slippageBps: 100 };

export const chainflipAdapterFor = (url: string) =>
  createChainflipAdapter({
    config: { key: 'CHAINFLIP', enabled: true, baseUrl: url, apiKey: undefined, deadlineMs: 2500 },
    baseUrl: url,
  });

/** Quotes 1 ETH to BTC, opens its channel, and gives the status input that tracks it. */
export async function openEthToBtcChannel(adapter: ProviderAdapter): Promise<StatusInput> {
  const [route] = await adapter.quote(ethToBtcQuote, testSignal());
  if (!route) throw new Error('no ETH -> BTC route');
  const executed = await adapter.execute(
    {
      ...ethToBtcQuote,
      depositor: EVM_WALLET,
      recipient: BTC_WALLET,
      routeId: route.routeId,
      providerQuote: route.providerQuote,
      transactionId: 'tx_test',
    },
    testSignal(),
  );
  return {
    trackingContext: executed.trackingContext,
    hash: '',
    inboundHash: '',
    src: ETH,
    dst: BTC,
    createdAt: new Date(),
    depositor: EVM_WALLET,
    recipient: BTC_WALLET,
    srcAmountBase: ONE_ETH,
  };
}
