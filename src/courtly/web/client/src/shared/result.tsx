// A finished game's result: who won, and each seat's return (on the table and in the replay).
import type { Result } from "../api";
import type { SeatNamer } from "../cards";

/** "p0 (Ann) wins", "p0 and p2 win", "No one wins". */
export function winnersText(winners: number[], seatName: SeatNamer): string {
  if (winners.length === 0) return "No one wins";
  return `${winners.map(seatName).join(" and ")} ${winners.length > 1 ? "win" : "wins"}`;
}

/** Each seat's return, the winners marked. */
export function Returns({ result, seatName }: { result: Result; seatName: SeatNamer }) {
  return (
    <table class="returns">
      <caption class="visually-hidden">Result of each seat</caption>
      <thead>
        <tr>
          <th scope="col">Seat</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        {result.returns.map((value, index) => (
          <tr key={index} class={result.winners.includes(index) ? "winner" : ""}>
            <th scope="row">{seatName(index)}</th>
            <td>{result.winners.includes(index) ? `won (${value})` : value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
