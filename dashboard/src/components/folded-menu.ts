import { type MouseEvent, useCallback, useEffect, useId, useRef, useState } from 'react';

/**
 * The sections' navigation folded behind a "Menu" button on a narrow screen (styles.css shows the
 * button and hides the closed navigation below 760px; at desktop sizes the button is not displayed and
 * the navigation always is). Following a link closes it and puts focus on the page; Escape closes it and
 * gives focus back to the button.
 */
export function useFoldedMenu(mainId: string) {
  const [open, setOpen] = useState(false);
  const navId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(
    (focus: 'button' | 'main') => {
      setOpen(false);
      if (focus === 'button') button.current?.focus();
      else document.getElementById(mainId)?.focus({ preventScroll: true });
    },
    [mainId],
  );
  useEffect(() => {
    if (!open) return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') close('button');
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);
  return {
    open,
    button: {
      ref: button,
      type: 'button' as const,
      className: 'menu-button',
      'aria-expanded': open,
      'aria-controls': navId,
      onClick: () => setOpen((was) => !was),
    },
    nav: {
      id: navId,
      className: open ? 'open' : undefined,
      onClick: (event: MouseEvent<HTMLElement>) => {
        if (open && (event.target as HTMLElement).closest('a')) close('main');
      },
    },
  };
}
