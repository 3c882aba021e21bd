import { VisuallyHidden } from './a11y';
import { CopyButton } from './CopyButton';
import { truncateMiddle } from './format';
import layout from './layout.module.css';
import text from './text.module.css';

/**
 * A hash, address or id in monospace, whole or shortened (the full value in its title), with an
 * optional copy button (`copy` is its accessible name) and block-explorer link.
 */
export function Hash({
  value,
  href,
  copy,
  short = false,
}: {
  value: string | null | undefined;
  href?: string | null;
  copy?: string;
  /** Shorten to a head and a tail (`true`: 8 and 6 characters); the full value stays in the title. */
  short?: boolean | [head: number, tail: number];
}) {
  if (!value) return <span className={text.muted}>—</span>;
  const shown = short === false ? value : truncateMiddle(value, ...(short === true ? [8, 6] : short));
  return (
    <span className={layout.inline}>
      {href ? (
        <a className={`${text.mono} ${text.value}`} href={href} target="_blank" rel="noopener noreferrer" title={value}>
          {shown}
          <VisuallyHidden> (opens the block explorer)</VisuallyHidden>
        </a>
      ) : (
        <code className={`${text.mono} ${text.value}`} title={value}>
          {shown}
        </code>
      )}
      {copy ? <CopyButton value={value} label={copy} /> : null}
    </span>
  );
}
