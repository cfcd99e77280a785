// The table drawing of each game, by game id; a game without one is drawn generically.
import type { FunctionComponent } from "preact";
import { Observation } from "../observation";
import type { BoardProps } from "./board";

const BOARDS: Record<string, FunctionComponent<BoardProps>> = {};

export function Board(props: BoardProps & { game: string }) {
  const Drawing = BOARDS[props.game];
  if (Drawing) return <Drawing {...props} />;
  return <Observation observation={props.observation} seatName={props.seatName} mine={props.seat} />;
}
