// The table drawing of each game, by game id; a game without one is drawn generically.
import type { FunctionComponent } from "preact";
import { Observation } from "../observation";
import type { BoardProps } from "./board";
import { MomentContext, type Moment } from "./parts";
import { CrushTheCrownBoard } from "./crush_the_crown";
import { GodSaveTheKingBoard } from "./god_save_the_king";
import { GothsSaveTheQueenBoard } from "./goths_save_the_queen";
import { KingsCourtBoard } from "./kings_court";
import { RoyalGambitBoard } from "./royal_gambit";

const BOARDS: Record<string, FunctionComponent<BoardProps>> = {
  "god-save-the-king": GodSaveTheKingBoard,
  "crush-the-crown": CrushTheCrownBoard,
  "royal-gambit": RoyalGambitBoard,
  "goths-save-the-queen": GothsSaveTheQueenBoard,
  "kings-court": KingsCourtBoard,
};

const QUIET: Moment = { open: false, changed: new Set() };

/** The game's board; ``moment`` (default: a table in play, nothing marked) is what the page knows
 * beside the observation. */
export function Board(props: BoardProps & { game: string; moment?: Moment }) {
  const Drawing = BOARDS[props.game];
  return (
    <MomentContext.Provider value={props.moment ?? QUIET}>
      {Drawing ? (
        <Drawing {...props} />
      ) : (
        <Observation observation={props.observation} seatName={props.seatName} mine={props.seat} />
      )}
    </MomentContext.Provider>
  );
}
