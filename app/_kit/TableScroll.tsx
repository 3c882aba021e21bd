'use client';

import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * Scrolls its table sideways when the table is wider than the container (narrow screens). While it
 * does, the scroller is a focusable, named group so keyboard users can scroll it too
 * (axe scrollable-region-focusable).
 */
export function TableScroll({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const measure = () => setScrolls(element.scrollWidth > element.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => observer.disconnect();
  }, []);

  const scrollable = scrolls ? { tabIndex: 0, role: 'group', 'aria-label': `${label} (scrolls sideways)` } : {};
  return (
    <div ref={scroller} className={className} {...scrollable}>
      {children}
    </div>
  );
}
