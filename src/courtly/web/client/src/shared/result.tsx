// A finished game's result, in the game's words: why it ended, and each seat's place, score and
// what decided it (on the table, in the replay).
import type { Result } from "../api";
import type { SeatNamer } from "../cards";
import { GameWords } from "./rule-links";

/** "p0 (Ann) wins", "p0 and p2 win", "No one wins". */
export function winnersText(winners: number[], seatName: SeatNamer): string {
  if (winners.length === 0) return "No one wins";
  return `${winners.map(seatName).join(" and ")} ${winners.length > 1 ? "win" : "wins"}`;
}

/** "1st", "2nd", "3rd", "4th", ... */
export function ordinal(place: number): string {
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[place % 10] ?? "th");
  return `${place}${suffix}`;
}

/** A sentence as a sentence: its first letter up, a full stop at its end. A seat ("p0") or a
 * card ("7H") that opens it stays as the game wrote it: it is drawn as a name or a card. */
export function sentence(text: string): string {
  const trimmed = text.trim();
  if (!trimmed) return trimmed;
  const named = /^(p\d+|(10|[2-9AJQK])[SHDC]|Jk)\b/.test(trimmed);
  const capital = named ? trimmed : trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?)]$/.test(capital) ? capital : `${capital}.`;
}

/** Why the game ended, and every seat's standing, best first. */
export function Outcome({ result, seatName }: { result: Result; seatName: SeatNamer }) {
  const scores = result.standings.some((s) => s.score !== "");
  const notes = result.standings.some((s) => s.note !== "");
  return (
    <>
      <p class="ending-reason" data-testid="ending-reason">
        <GameWords text={sentence(result.reason)} seatName={seatName} />
      </p>
      <table class="standings">
        <caption class="visually-hidden">Each seat's place{scores ? " and score" : ""}</caption>
        <thead>
          <tr>
            <th scope="col">Place</th>
            <th scope="col">Seat</th>
            {scores && <th scope="col">Score</th>}
            {notes && <th scope="col">What decided it</th>}
          </tr>
        </thead>
        <tbody>
          {result.standings.map((standing) => (
            <tr
              key={standing.seat}
              class={standing.place === 1 ? "winner" : ""}
              data-seat={standing.seat}
              data-place={standing.place}
            >
              <td class="standing-place">{standing.place === 1 && result.winners.length > 0 ? `${ordinal(1)}, winner` : ordinal(standing.place)}</td>
              <th scope="row">{seatName(standing.seat)}</th>
              {scores && (
                <td class="standing-score">
                  <GameWords text={standing.score} seatName={seatName} />
                </td>
              )}
              {notes && (
                <td class="standing-note">
                  <GameWords text={standing.note} seatName={seatName} />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
