// The table drawing of each game, by game id; a game without one is drawn generically.
import type { FunctionComponent } from "preact";
import { Observation } from "../observation";
import type { BoardProps } from "./board";
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

export function Board(props: BoardProps & { game: string }) {
  const Drawing = BOARDS[props.game];
  if (Drawing) return <Drawing {...props} />;
  return <Observation observation={props.observation} seatName={props.seatName} mine={props.seat} />;
}
