// The Hint button and its answer: every move's estimated win chance for this seat, searched by
// the server from this seat's view alone; dropped as soon as the view changes.
import { useEffect, useState } from "preact/hooks";
import { ApiError, type Hint, type LegalAction, type SeatMessage } from "../api";
import { RichText, type SeatNamer } from "../cards";
import { percent } from "../shared/format";
import { useTransport } from "./transport";

/** The best moves listed; the others are only counted. */
const HINT_SHOWN = 5;

export function HintBox({
  message,
  seat,
  token,
  seatName,
  play,
  ask: askWords = "Hint",
  explain,
}: {
  message: SeatMessage;
  seat: number;
  token: string;
  seatName: SeatNamer;
  /** Plays a hinted move when it is clicked (without it, the moves are only listed). */
  play?: (action: LegalAction) => void;
  /** What the button that asks says. */
  ask?: string;
  /** Said above the estimates once they are shown. */
  explain?: string;
}) {
  const transport = useTransport();
  const [hint, setHint] = useState<Hint | null>(null);
  const [asking, setAsking] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const version = message.version;
  const shown = hint !== null && hint.version === version ? hint : null;
  const thinking = asking === version;
  useEffect(() => setError(null), [version]);
  const ask = () => {
    if (thinking) return;
    setAsking(version);
    setError(null);
    transport.hint(message.table, seat, version, token).then(
      (answer) => {
        setHint(answer);
        setAsking(null);
      },
      (e: ApiError) => {
        setAsking(null);
        // A move made meanwhile: the question is moot, not an error worth showing.
        if (e.status !== 409) setError(`No hint: ${e.message}`);
      },
    );
  };
  const byId = new Map(message.legal_actions.map((action) => [action.id, action]));
  return (
    <div class="hint-box">
      {!shown && (
        <button type="button" class="hint-button" onClick={ask} aria-busy={thinking} disabled={thinking}>
          {thinking ? "Thinking…" : askWords}
        </button>
      )}
      {!shown && !thinking && (
        <span class="muted"> the best moves by their chance to win, from what you can see</span>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {shown && explain && <p class="hint-explain">{explain}</p>}
      {shown && (
        <ol class="hint-list" aria-label="Hint: the best moves, with your estimated chance to win">
          {shown.actions.slice(0, HINT_SHOWN).map((estimate) => {
            const action = byId.get(estimate.id);
            const words = <RichText text={action?.label ?? estimate.action} seatName={seatName} />;
            return (
              <li key={estimate.id}>
                {play ? (
                  <button
                    type="button"
                    class="hint-move"
                    data-action={estimate.action}
                    disabled={action === undefined}
                    onClick={() => action && play(action)}
                  >
                    {words}
                  </button>
                ) : (
                  <span class="hint-move" data-action={estimate.action}>
                    {words}
                  </span>
                )}{" "}
                <span class="hint-chance">
                  {percent(estimate.mean)}{" "}
                  <span class="muted">
                    ({percent(estimate.low)}–{percent(estimate.high)})
                  </span>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {shown && shown.actions.length > HINT_SHOWN && (
        <p class="muted">and {shown.actions.length - HINT_SHOWN} more moves, each less likely to win.</p>
      )}
    </div>
  );
}
