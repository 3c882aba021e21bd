import { Fragment } from 'react';

/** Inline `code` spans for the backticks the document's descriptions use. */
export function Text({ children }: { children: string }) {
  return (
    <>
      {children.split(/(`[^`]+`)/).map((part, i) =>
        part.startsWith('`') && part.endsWith('`') && part.length > 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the split of a fixed string never reorders
          <code key={i}>{part.slice(1, -1)}</code>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the split of a fixed string never reorders
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
