/** Referral links (`/?ref=CODE` or `?referral=CODE`) attribute every swap of the visit. */

const STORAGE_KEY = 'switchyard.referralCode';
export const REFERRAL_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Stores a valid code from the URL for this visit and returns the code in effect, if any. */
export function rememberReferral(fromUrl: string | null | undefined): string | null {
  const store = storage();
  const code = fromUrl?.trim();
  if (code && REFERRAL_PATTERN.test(code)) {
    try {
      store?.setItem(STORAGE_KEY, code);
    } catch {
      // Storage full or blocked: the code still applies to this page view.
    }
    return code;
  }
  const stored = store?.getItem(STORAGE_KEY) ?? null;
  return stored && REFERRAL_PATTERN.test(stored) ? stored : null;
}
