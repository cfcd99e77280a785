// The cover between two people at one device (hot seat, online or offline): the table is not on
// the page until the next person says they hold the device, so nobody sees another's cards.
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

export function HandoverCover({
  caption,
  to,
  seat,
  onReady,
}: {
  caption: ComponentChildren;
  to: string;
  seat: number;
  onReady: () => void;
}) {
  // The button takes the focus, so passing the device is one key for a keyboard user.
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), [seat]);
  return (
    <section class="panel hotseat-cover" aria-labelledby="cover-heading" data-cover-seat={seat}>
      <p class="muted">{caption}</p>
      <h1 id="cover-heading">Pass the device to {to}</h1>
      <p>The table is hidden so that nobody sees another player's cards.</p>
      <button ref={button} type="button" class="primary" onClick={onReady}>
        I am p{seat}
      </button>
    </section>
  );
}
