import { type KeyboardEvent, type MouseEvent, useCallback, useId, useRef, useState } from 'react';

/**
 * The sections' navigation folded behind a "Menu" button on a narrow screen (styles.css shows the
 * button and hides the closed navigation below 760px; at desktop sizes the button is not displayed and
 * the navigation always is). A disclosure, not a modal: following a link closes it and puts focus on
 * the page; Escape, from the button or inside the navigation, closes it and gives focus to the button.
 */
export function useFoldedMenu(mainId: string) {
  const [open, setOpen] = useState(false);
  const navId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (!open || event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    },
    [open],
  );
  return {
    button: {
      ref: button,
      type: 'button' as const,
      className: 'menu-button',
      'aria-expanded': open,
      'aria-controls': navId,
      onClick: () => setOpen((was) => !was),
      onKeyDown,
    },
    nav: {
      id: navId,
      className: open ? 'open' : undefined,
      onKeyDown,
      onClick: (event: MouseEvent<HTMLElement>) => {
        if (!open || !(event.target as HTMLElement).closest('a')) return;
        setOpen(false);
        document.getElementById(mainId)?.focus({ preventScroll: true });
      },
    },
  };
}
