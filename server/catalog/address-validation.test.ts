import { describe, expect, it } from 'vitest';
import { isValidWalletAddress, type WalletChain } from './address-validation';

const chain = (key: string, type: WalletChain['type'], bech32Prefix: string | null = null): WalletChain => ({
  key,
  type,
  bech32Prefix,
});

const cases: [WalletChain, string[], string[]][] = [
  [
    chain('ethereum', 'EVM'),
    [
      '0x52908400098527886E0F7030069857D2E4169EE7',
      '0xde709f2102306220921060314715629080e2fb77',
      '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
    ],
    [
      '0x52908400098527886E0F7030069857D2E4169Ee7',
      '0x1234',
      'de709f2102306220921060314715629080e2fb77',
      '0xZZ709f2102306220921060314715629080e2fb77',
    ],
  ],
  [
    chain('bitcoin', 'UTXO', 'bc'),
    [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297',
    ],
    [
      '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb',
      'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5',
      'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
      'ltc1qpvc9275lcn5suv6c0k3v0mq3xedcpfw24vvr3x',
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx',
    ],
  ],
  [
    chain('litecoin', 'UTXO', 'ltc'),
    [
      'LaMT348PWRnrqeeWArpwQPbuanpXDZGEUz',
      'MGxNPPB7eBoWPUaprtX9v9CXJZoD2465zN',
      'ltc1qpvc9275lcn5suv6c0k3v0mq3xedcpfw24vvr3x',
    ],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ],
  [
    chain('dogecoin', 'UTXO'),
    ['DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L', 'DBXu2kgc3xtvCUWFcxFE3r9hEYgmuaaCyD'],
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'DH5yaieqoZN36fDVciNyRueRGvGLR3mr7M'],
  ],
  [
    chain('bitcoincash', 'UTXO'),
    [
      'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
      'qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
      '1BpEi6DfDAUFd7GtittLSdBeYJvcoaVggu',
    ],
    ['bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6b', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ],
  [
    chain('cosmoshub', 'COSMOS', 'cosmos'),
    ['cosmos1hsk6jryyqjfhp5dhc55tc9jtckygx0eph6dd02'],
    ['thor1hsk6jryyqjfhp5dhc55tc9jtckygx0eph6dd02', 'cosmos1hsk6jryyqjfhp5dhc55tc9jtckygx0eph6dd03', 'cosmos1xyz'],
  ],
  [
    chain('solana', 'OTHER'),
    ['9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', '11111111111111111111111111111111'],
    ['0x52908400098527886E0F7030069857D2E4169EE7', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWW0', 'abc'],
  ],
  [
    chain('ton', 'OTHER'),
    [
      'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs',
      'UQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_p0p',
      '0:b113a994b5024a16719f69139328eb759596c38a25f59028b146fecdc3621dfe',
    ],
    ['EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDt', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'],
  ],
];

describe('isValidWalletAddress', () => {
  for (const [c, valid, invalid] of cases) {
    it.each(valid)(`accepts %s on ${c.key}`, (address) => expect(isValidWalletAddress(c, address)).toBe(true));
    it.each(invalid)(`refuses %s on ${c.key}`, (address) => expect(isValidWalletAddress(c, address)).toBe(false));
  }

  it('refuses surrounding whitespace and empty strings', () => {
    const evm = chain('ethereum', 'EVM');
    expect(isValidWalletAddress(evm, ' 0xde709f2102306220921060314715629080e2fb77')).toBe(false);
    expect(isValidWalletAddress(evm, '')).toBe(false);
  });
});
