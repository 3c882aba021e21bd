'use client';

import { type Dispatch, useCallback, useEffect, useRef, useState } from 'react';
import { type Asset, api, asApiError } from '../_lib/api';
import type { Remote } from '../_lib/useCatalog';
import type { FormValues, SwapAction } from './swap-state';

/** The assets of the two chosen chains, each chain loaded once; a freshly chosen chain starts on its native asset. */
export function useChainAssets(form: FormValues, dispatch: Dispatch<SwapAction>) {
  const [assets, setAssets] = useState<Record<string, Remote<Asset[]>>>({});
  const requested = useRef(new Set<string>());

  const load = useCallback((chain: string, force = false) => {
    if (!chain || (!force && requested.current.has(chain))) return;
    requested.current.add(chain);
    setAssets((all) => ({ ...all, [chain]: { status: 'loading' } }));
    api
      .assets(chain)
      .then(({ data }) => setAssets((all) => ({ ...all, [chain]: { status: 'ready', data } })))
      .catch((error) => setAssets((all) => ({ ...all, [chain]: { status: 'error', error: asApiError(error) } })));
  }, []);
  useEffect(() => load(form.srcChain), [form.srcChain, load]);
  useEffect(() => load(form.dstChain), [form.dstChain, load]);

  const src = assets[form.srcChain];
  const dst = assets[form.dstChain];
  useEffect(() => {
    const sides = [
      ['src', src, form.srcAddress],
      ['dst', dst, form.dstAddress],
    ] as const;
    for (const [side, list, chosen] of sides) {
      if (list?.status !== 'ready' || chosen) continue;
      const native = list.data.find((a) => a.isNative);
      if (native) dispatch({ type: 'default-asset', side, address: native.address });
    }
  }, [src, dst, form.srcAddress, form.dstAddress, dispatch]);

  const retry = () => {
    if (src?.status === 'error') load(form.srcChain, true);
    if (dst?.status === 'error') load(form.dstChain, true);
  };
  return { src, dst, retry };
}
