export interface SourceSeed {
  key: string;
  name: string;
  image: string;
  type: 'BRIDGE' | 'EXCHANGE' | 'SERVICE';
}

export const sourcesSeed: SourceSeed[] = [
  {
    key: 'THORCHAIN',
    name: 'THORChain',
    image: 'https://raw.githubusercontent.com/trustwallet/assets/master/blockchains/thorchain/info/logo.png',
    type: 'EXCHANGE',
  },
  {
    key: 'CHAINFLIP',
    name: 'Chainflip',
    image: 'https://chainflip.io/favicon.ico',
    type: 'EXCHANGE',
  },
  {
    key: 'RELAY',
    name: 'Relay',
    image: 'https://relay.link/favicon.ico',
    type: 'BRIDGE',
  },
  {
    key: 'LIFI',
    name: 'LI.FI',
    image: 'https://li.fi/favicon.ico',
    type: 'SERVICE',
  },
];
