// What every game's table drawing gets, and the cards it lets a person click.
//
// A board draws one observation (`state.view(seat).observation()`, nothing else) as people
// expect to see that game. Cards the viewer may play are buttons: clicking one *picks* it, and
// the moves panel then shows the legal actions naming that card (with their text) to confirm
// or, when several do (a card and a target), to choose among. A board never sends a move itself.
import type { LegalAction } from "../api";
import { Card, type SeatNamer } from "../cards";

/** The cards, seats and words of the viewer's legal actions, and the one picked. */
export interface Picker {
  /** The legal actions whose text names ``token`` (a card "7H", a seat "p1", a word such as
   * "obj0" or "v1"; or several words, "KS p0": a card then its target, the actions naming them
   * all): empty when the viewer may not move. */
  actionsWith(token: string): LegalAction[];
  /** Pick ``token`` (again: drop it). */
  pick(token: string): void;
  picked: string | null;
}

export interface BoardProps {
  /** The game's observation for this page's seat (or spectator): its keys are the game's own. */
  observation: Record<string, unknown>;
  /** The viewing seat, null for a spectator. */
  seat: number | null;
  players: number;
  toMove: number[];
  seatName: SeatNamer;
  picker: Picker;
}

/** The words of an action's text ("borrow KS p0" -> ["borrow", "KS", "p0"]). */
export function tokens(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/** A picker over ``legal`` (the page's seat's legal actions; empty when it may not move). */
export function makePicker(
  legal: LegalAction[],
  picked: string | null,
  setPicked: (token: string | null) => void,
): Picker {
  const byToken = new Map<string, LegalAction[]>();
  for (const action of legal) {
    for (const token of new Set(tokens(action.text))) {
      const list = byToken.get(token);
      if (list) list.push(action);
      else byToken.set(token, [action]);
    }
  }
  return {
    actionsWith: (token) => {
      const [first = "", ...rest] = tokens(token);
      const named = byToken.get(first) ?? [];
      if (rest.length === 0) return named;
      return named.filter((action) => {
        const words = new Set(tokens(action.text));
        return rest.every((word) => words.has(word));
      });
    },
    pick: (token) => setPicked(picked === token ? null : token),
    picked,
  };
}

/** A card on a board: a button when a legal move names it, else a picture. */
export function PlayableCard({
  code,
  picker,
  small = false,
}: {
  code: string | null;
  picker: Picker;
  small?: boolean;
}) {
  const moves = code ? picker.actionsWith(code) : [];
  if (code === null || moves.length === 0) return <Card code={code} small={small} />;
  const picked = picker.picked === code;
  return (
    <button
      type="button"
      class={picked ? "card-button picked" : "card-button"}
      aria-pressed={picked}
      data-pick={code}
      title={moves.map((m) => m.label).join(" / ")}
      onClick={() => picker.pick(code)}
    >
      <Card code={code} small={small} />
    </button>
  );
}
