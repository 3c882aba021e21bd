'use client';

import { type ReactNode, useEffect, useRef, useState } from 'react';
import styles from './table.module.css';

type Overflow = { left: boolean; right: boolean };
const NONE: Overflow = { left: false, right: false };

/**
 * Scrolls its table sideways when the table is wider than the container (narrow screens). While it
 * does, the scroller is a focusable, named group so keyboard users can scroll it too
 * (axe scrollable-region-focusable), and a shaded edge on each side that hides columns says there
 * is more that way: phones hide scrollbars until a scroll starts.
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  label: string;
  /** Classes of the frame around the scroller, which keeps the edges in place while the table moves. */
  className?: string;
  children: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState<Overflow>(NONE);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => {
      const hidden = element.scrollWidth - element.clientWidth;
      const left = hidden > 1 && element.scrollLeft > 1;
      const right = hidden > 1 && element.scrollLeft < hidden - 1;
      setOverflow((previous) => (previous.left === left && previous.right === right ? previous : { left, right }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    element.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', measure);
    };
  }, []);

  const scrolls = overflow.left || overflow.right;
  const scrollable = scrolls ? { tabIndex: 0, role: 'group', 'aria-label': `${label} (scrolls sideways)` } : {};
  return (
    <div
      className={[styles.frame, className].filter(Boolean).join(' ')}
      data-more-left={overflow.left || undefined}
      data-more-right={overflow.right || undefined}
    >
      <div ref={scroller} className={styles.scroll} {...scrollable}>
        {children}
      </div>
    </div>
  );
}
