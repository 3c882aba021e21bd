import Link from 'next/link';
import styles from './brand.module.css';

function Logo() {
  return (
    <svg width="26" height="26" viewBox="0 0 26 26" aria-hidden="true" focusable="false">
      <rect width="26" height="26" rx="7" fill="var(--accent)" />
      <path
        d="M7 9h10l-3-3M19 17H9l3 3"
        fill="none"
        stroke="var(--accent-ink)"
        strokeWidth="2.2"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** The Switchyard mark and name, with what part of the product this is (`sub`); a link when `href` is given. */
export function Brand({ href, sub }: { href?: string; sub?: string }) {
  const content = (
    <>
      <Logo />
      <span className={styles.name}>
        Switchyard
        {sub ? <span className={styles.sub}>{sub}</span> : null}
      </span>
    </>
  );
  return href ? (
    <Link href={href} className={styles.brand}>
      {content}
    </Link>
  ) : (
    <span className={styles.brand}>{content}</span>
  );
}
