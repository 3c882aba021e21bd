/** The query parameter that names the swap just executed, so a reload (a phone's tab, switching to the wallet app) brings it back. */
export const EXECUTED_SWAP_PARAM = 'tx';

/** `href` (path, query and fragment kept) naming the swap `transactionId`, or naming none. */
export function addressWithSwap(href: string, transactionId: string | null): string {
  const url = new URL(href);
  if (transactionId) url.searchParams.set(EXECUTED_SWAP_PARAM, transactionId);
  else url.searchParams.delete(EXECUTED_SWAP_PARAM);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Puts the executed swap in the address bar without a navigation (the page stays as it is). */
export function showSwapInAddress(transactionId: string | null) {
  window.history.replaceState(window.history.state, '', addressWithSwap(window.location.href, transactionId));
}
