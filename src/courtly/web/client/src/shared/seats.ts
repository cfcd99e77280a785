// Seats by name: "p1 (Ann)", "p2 (heuristic bot)", "p3 (free)", on every page that names them.
import type { SeatPublic } from "../api";
import type { SeatNamer } from "../cards";

export function seatNamer(seats: SeatPublic[]): SeatNamer {
  return (index) => {
    const seat = seats[index];
    if (!seat) return `p${index}`;
    const label = `p${index}`;
    const name = seat.name === label ? "" : seat.name; // the server names a nameless seat so
    const who = seat.kind === "bot" ? `${seat.bot ?? seat.name} bot` : name || (seat.taken ? "" : "free");
    return who ? `${label} (${who})` : label;
  };
}
