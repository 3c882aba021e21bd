/** The cursors of the keyset pages shown before the current one, oldest step last; the first page has none. */
export type KeysetPages = readonly string[];

export const keysetPages = {
  first: [] as KeysetPages,
  /** The cursor the current page is read with; none on the first. */
  cursor: (shown: KeysetPages) => shown.at(-1),
  /** One page on, from the current page's next cursor. */
  older: (shown: KeysetPages, nextCursor: string): KeysetPages => [...shown, nextCursor],
  /** One page back; on the first page, stays there. */
  newer: (shown: KeysetPages): KeysetPages => shown.slice(0, -1),
};
