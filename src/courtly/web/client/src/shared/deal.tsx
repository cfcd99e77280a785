// A table's deal as every page that shows a table tells it: that its creator chose the deal
// (the lobby's row, the join page, the table), and the commitment to its seed, with the seed
// revealed once the game is over and how to check it (the table).
import type { Deal } from "../api";
import "./deal.css";

/** What a person joining or watching must know before they play: the creator chose the deal,
 * so may know every hand (null for a deal drawn in secret by the server). */
export function chosenDealText(deal: Deal): string | null {
  if (!deal.chosen) return null;
  if (deal.commitment === null) {
    return "This table was made before deals were committed to: its creator may have chosen the deal, and may know every hand.";
  }
  return `The creator chose this table's deal (seed ${deal.seed}): they may know every hand.`;
}

/** The warning that the deal was chosen, wherever a table is offered or shown. */
export function ChosenDeal({ deal, compact = false }: { deal: Deal; compact?: boolean }) {
  const text = chosenDealText(deal);
  if (text === null) return null;
  return (
    <p class={compact ? "deal-chosen compact" : "deal-chosen warning"} data-testid="deal-chosen">
      {text}
    </p>
  );
}

/** The commitment to the table's seed, and once the game is over the seed and how to check that
 * every card was drawn from it. */
export function DealPanel({ deal, table, over }: { deal: Deal; table: string; over: boolean }) {
  if (deal.commitment === null) return null;
  return (
    <details class="panel deal" data-testid="deal">
      <summary>Fair deal</summary>
      <p>
        {deal.chosen
          ? "The creator chose the seed every card is drawn from. "
          : "The server drew the seed every card is drawn from in secret. "}
        It committed to it when the table was made, with this SHA-256 hash:
      </p>
      <p class="deal-hash">
        <code>{deal.commitment}</code>
      </p>
      {over && deal.seed !== null && deal.salt !== null ? (
        <p>
          The game is over: the seed was <code>{deal.seed}</code> (salt <code>{deal.salt}</code>). Save the{" "}
          <a href={`/api/tables/${encodeURIComponent(table)}/record`} download={`${table}.json`}>
            record
          </a>{" "}
          and check every card with <code>courtly replay {table}.json --verify</code>.
        </p>
      ) : (
        <p>The seed is revealed when the game is over, so anyone can check that every card was drawn from it.</p>
      )}
    </details>
  );
}
