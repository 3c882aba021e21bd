'use client';

import { useCallback, useEffect, useState } from 'react';
import * as names from '@/server/catalog/names';
import { type ApiError, api, asApiError, type Chain, type Source } from './api';

export type Remote<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; data: T }
  | { status: 'error'; error: ApiError };

const namesOf = (sources: Source[]) => Object.fromEntries(sources.map((s) => [s.key, s.name]));

/**
 * The chain list and the display names of chains and providers. Names come from the naming table until
 * (or unless) the catalog loads; `reload` tries the chains again after a failure. A page rendered
 * with the catalog (`known`) starts from it and loads nothing.
 */
export function useCatalog(known?: { chains: Chain[]; sources: Source[] }) {
  const [chains, setChains] = useState<Remote<Chain[]>>(
    known ? { status: 'ready', data: known.chains } : { status: 'loading' },
  );
  const [providers, setProviders] = useState<Record<string, string>>(() => (known ? namesOf(known.sources) : {}));
  const [preloaded] = useState(Boolean(known));

  const load = useCallback(() => {
    const controller = new AbortController();
    setChains({ status: 'loading' });
    api
      .chains(controller.signal)
      .then(({ data }) => setChains({ status: 'ready', data }))
      .catch((error) => {
        if (!controller.signal.aborted) setChains({ status: 'error', error: asApiError(error) });
      });
    api
      .sources(controller.signal)
      .then(({ data }) => setProviders(namesOf(data)))
      .catch(() => {});
    return () => controller.abort();
  }, []);
  useEffect(() => (preloaded ? undefined : load()), [load, preloaded]);

  const chainName = useCallback(
    (key: string | null) => {
      if (!key) return 'unknown chain';
      return (chains.status === 'ready' && chains.data.find((c) => c.key === key)?.name) || names.chainName(key);
    },
    [chains],
  );
  const chainNameById = useCallback(
    (chainId: number | null) => {
      const chain =
        chains.status === 'ready' ? chains.data.find((c) => c.type === 'EVM' && c.chainId === chainId) : null;
      return (
        chain?.name ?? (chainId === null ? undefined : names.evmChainName(chainId)) ?? `chain ${chainId ?? 'unknown'}`
      );
    },
    [chains],
  );
  const providerName = useCallback((key: string) => providers[key] ?? names.providerName(key), [providers]);

  return { chains, reload: load, chainName, chainNameById, providerName };
}
