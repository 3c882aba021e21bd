import type { z } from 'zod';
import { isValidWalletAddress } from '../catalog/address-validation';
import { amountShapeProblem, parseAmount } from '../catalog/amounts';
import { type CatalogChain, type CatalogSnapshot, getCatalog } from '../catalog/snapshot';
import type { AppContext } from '../context';
import { type FieldProblem, problemsFromZod, validationError } from '../errors';
import type { RouteAsset } from '../providers/types';
import { swapFieldCode } from '../schemas/swap';

export interface SwapPair {
  src: RouteAsset;
  dst: RouteAsset;
  srcChain: CatalogChain;
  dstChain: CatalogChain;
  amount: string;
  amountBase: bigint;
  slippageBps: number;
  depositor?: string;
  recipient?: string;
  exclude: string[];
}

const AMOUNT_MESSAGES = {
  not_a_number: 'amount must be a positive decimal string such as "1.5" (no sign, exponent or separators)',
  not_positive: 'amount must be greater than zero',
  too_many_decimals: 'amount has more decimal places than the asset supports',
  too_large: 'amount is too large',
} as const;

interface PairFields {
  srcChain: string;
  srcAddress: string;
  dstChain: string;
  dstAddress: string;
  amount: string;
  slippage?: number;
  depositor?: string;
  recipient?: string;
  exclude?: string[];
}

/**
 * Validates a quote or lock body in one pass: schema problems and catalog, amount, address and
 * pair rules are all collected, so the client sees every problem at once instead of fixing one per request.
 */
export async function validateSwapBody<S extends z.ZodType<PairFields>>(
  ctx: AppContext,
  schema: S,
  raw: Record<string, unknown>,
): Promise<{ body: z.output<S>; pair: SwapPair }> {
  const parsed = schema.safeParse(raw);
  const problems: FieldProblem[] = parsed.success
    ? []
    : problemsFromZod(parsed.error).map((p) => {
        const top = p.field.split('.')[0] ?? '';
        return p.code === 'VALIDATION_ERROR' ? { ...p, code: swapFieldCode(top, raw[top]) } : p;
      });
  const failed = new Set(problems.map((p) => p.field.split('.')[0]));
  const ok = (field: string) => !failed.has(field) && typeof raw[field] === 'string';
  const catalog = await getCatalog(ctx);

  const side = (prefix: 'src' | 'dst') => {
    const chainField = `${prefix}Chain`;
    const addressField = `${prefix}Address`;
    if (!ok(chainField)) return {};
    const chainKey = String(raw[chainField]).trim();
    const chain = catalog.chain(chainKey);
    if (!chain) {
      problems.push({
        code: 'VALIDATION_ERROR',
        field: chainField,
        message: `Unknown or inactive chain "${chainKey}"`,
      });
      return {};
    }
    if (!ok(addressField)) return { chain };
    const asset = catalog.asset(chain.key, String(raw[addressField]));
    if (!asset) {
      problems.push({
        code: 'VALIDATION_ERROR',
        field: addressField,
        message: `Asset ${String(raw[addressField]).trim()} is not listed on ${chain.key}`,
      });
    }
    return { chain, asset };
  };
  const src = side('src');
  const dst = side('dst');

  let amountBase: bigint | undefined;
  if (ok('amount')) {
    const amount = String(raw.amount);
    // Precision and size depend on the source asset; without one only the shape can be judged.
    const result = src.asset ? parseAmount(amount, src.asset.decimals) : null;
    const problem = result ? (result.ok ? null : result.problem) : amountShapeProblem(amount);
    if (result?.ok) amountBase = result.base;
    if (problem) problems.push({ code: 'INVALID_AMOUNT', field: 'amount', message: AMOUNT_MESSAGES[problem] });
  }

  checkWallet(problems, 'depositor', raw.depositor, src.chain, failed);
  checkWallet(problems, 'recipient', raw.recipient, dst.chain, failed);

  if (src.asset && dst.asset && src.asset.id === dst.asset.id) {
    problems.push({
      code: 'UNSUPPORTED_PAIR',
      field: 'dstAddress',
      message: 'Source and destination are the same asset on the same chain',
    });
  }

  if (
    problems.length ||
    !parsed.success ||
    !src.asset ||
    !dst.asset ||
    !src.chain ||
    !dst.chain ||
    amountBase === undefined
  ) {
    throw validationError(problems);
  }
  const body = parsed.data;
  return {
    body,
    pair: {
      src: src.asset,
      dst: dst.asset,
      srcChain: src.chain,
      dstChain: dst.chain,
      amount: body.amount,
      amountBase,
      slippageBps: body.slippage ?? ctx.config.defaultSlippageBps,
      depositor: body.depositor,
      recipient: body.recipient,
      exclude: (body.exclude ?? []).map((k) => k.trim().toUpperCase()),
    },
  };
}

function checkWallet(
  problems: FieldProblem[],
  field: 'depositor' | 'recipient',
  value: unknown,
  chain: CatalogChain | undefined,
  failed: Set<string | undefined>,
) {
  if (typeof value !== 'string' || failed.has(field) || !chain) return;
  if (!isValidWalletAddress(chain, value)) {
    problems.push({
      code: 'INVALID_ADDRESS',
      field,
      message: `${field} is not a valid ${chain.name} address${chain.type === 'EVM' ? ' (mixed-case addresses must carry a valid EIP-55 checksum)' : ''}`,
    });
  }
}

export type { CatalogSnapshot };
