// The end of a game on its table: who won, why the game ended and each seat's place and score in
// the game's words, the rematch (the seats keep their tokens there), and the ways to the replay
// and the review.
import { useState } from "preact/hooks";
import { api, ApiError, savedToken, saveToken, type SeatMessage } from "../api";
import type { SeatNamer } from "../cards";
import {
  hotseatPath,
  navigate,
  newTablePath,
  offlineReplayPath,
  offlineReviewPath,
  onLinkClick,
  replayPath,
  reviewPath,
  tablePath,
} from "../router";
import { Links, TO_THE_LOBBY } from "../shared/links";
import { useTransport } from "./transport";
import { Outcome, winnersText } from "../shared/result";
import type { HotSeat } from "./page";

export function Ending({
  message,
  seat,
  token,
  seatName,
  hotseat,
}: {
  message: SeatMessage;
  seat: number | null;
  token: string | null;
  seatName: SeatNamer;
  hotseat?: HotSeat;
}) {
  const result = message.result!;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // On a hot seat the device is every seat's: it names the winners rather than "you".
  const yours = seat !== null && result.winners.includes(seat) && !hotseat;
  const headline = yours
    ? result.winners.length > 1
      ? "You share the win"
      : "You win"
    : winnersText(result.winners, seatName);

  const online = useTransport().online;
  const rematch = async () => {
    if (seat === null || token === null) return;
    setBusy(true);
    try {
      // Asked again (by another seat, or twice), the server answers with the same new table;
      // the seats keep their tokens there.
      const next = await api.rematch(message.table, seat, token);
      if (hotseat) {
        // Every seat of this device keeps its token at the new table, and plays it here again.
        for (const other of hotseat.seats) {
          const held = savedToken(message.table, other);
          if (held !== null) saveToken(next.id, other, held);
        }
        navigate(hotseatPath(next.id));
        return;
      }
      saveToken(next.id, seat, token);
      navigate(tablePath(next.id, seat));
    } catch (e) {
      setError((e as ApiError).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="panel ending" aria-labelledby="ending-heading">
      <h2 id="ending-heading">{headline}</h2>
      <Outcome result={result} seatName={seatName} />
      {message.tutorial && (
        <a class="button primary" href={newTablePath(message.game)} onClick={onLinkClick}>
          Play a real game
        </a>
      )}{" "}
      {!online ? null : seat !== null && token !== null ? (
        <button
          type="button"
          class={message.tutorial ? undefined : "primary"}
          disabled={busy}
          onClick={() => void rematch()}
        >
          {message.rematch_id ? "Join the rematch" : "Rematch"}
        </button>
      ) : (
        message.rematch_id && (
          <a href={tablePath(message.rematch_id, null)} onClick={onLinkClick}>
            Watch the rematch
          </a>
        )
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      <Links
        links={[
          // (a game played in this browser is replayed and reviewed from its kept record)
          [online ? replayPath(message.table) : offlineReplayPath(message.table), "Replay the game step by step"],
          [online ? reviewPath(message.table) : offlineReviewPath(message.table), "Review the game"],
          TO_THE_LOBBY,
        ]}
      >
        Every hidden card is on the table below.{" "}
      </Links>
    </section>
  );
}
