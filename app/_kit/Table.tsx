import type { ReactNode } from 'react';
import { VisuallyHidden } from './a11y';
import { TableScroll } from './TableScroll';
import styles from './table.module.css';

/**
 * Cell classes: `num` right-aligns figures, `wrap` lets a long cell wrap, `breakable` lets a short one
 * break at its spaces only when the table is short of room, `anywhere` lets a code without spaces break
 * between characters, `nowrap` keeps one from wrapping.
 */
export const cell = {
  num: styles.num,
  wrap: styles.wrap,
  breakable: styles.breakable,
  anywhere: styles.anywhere,
  nowrap: styles.nowrap,
} as const;

/** A table that scrolls sideways inside its container on narrow screens, with a caption for screen readers. */
export function Table({
  caption,
  headers,
  prose = false,
  bleed = false,
  busy,
  children,
}: {
  /** Read by screen readers before the table, and the scroller's name. */
  caption: string;
  /** Column headers; with them `children` are the body's rows, without them the table's sections. */
  headers?: ReactNode[];
  /** Cells wrap and align to the top, for tables of descriptions. */
  prose?: boolean;
  /** Reach the side edges of the surrounding Panel. */
  bleed?: boolean;
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <TableScroll label={caption} className={bleed ? styles.bleed : undefined}>
      <table className={prose ? `${styles.table} ${styles.prose}` : styles.table} aria-busy={busy || undefined}>
        <caption>
          <VisuallyHidden>{caption}</VisuallyHidden>
        </caption>
        {headers ? (
          <>
            <thead>
              <tr>
                {headers.map((header, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: headers are fixed and never reorder
                  <th key={i} scope="col">
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>{children}</tbody>
          </>
        ) : (
          children
        )}
      </table>
    </TableScroll>
  );
}
