// A tutorial table's coaching panel: which lesson this is, the game's words about the decision
// the learner faces (cards drawn as cards, rule ids linked to their rules), and the hint's
// estimates behind them on request. The server sends the lesson in the learner's message alone.
import { useRef } from "preact/hooks";
import type { Lesson, SeatMessage } from "../api";
import { RichText, type SeatNamer } from "../cards";
import { RuleLinks } from "../shared/rule-links";
import { HintBox } from "./hints";
import "./coach.css";

/** Whether a lesson is being taught now (its panel holds the hint then). */
export function teaching(message: SeatMessage): boolean {
  return message.lesson?.number !== undefined && message.lesson.number !== null;
}

/** The panel of a tutorial table's learner: beside the board on a wide screen, above the moves
 * on a phone (coach.css). */
export function CoachPanel({
  message,
  seat,
  token,
  seatName,
}: {
  message: SeatMessage;
  seat: number;
  token: string;
  seatName: SeatNamer;
}) {
  // The last lesson told: while the bots play, the panel says what comes next.
  const last = useRef<Lesson | null>(null);
  if (message.lesson) last.current = message.lesson;
  const lesson = message.lesson ?? null;
  const over = message.status === "over";
  const onYourOwn = last.current !== null && last.current.number === null;
  let heading: string;
  if (over) heading = "Tutorial complete";
  else if (lesson?.number != null) heading = `Lesson ${lesson.number} of ${lesson.lessons}`;
  else if (onYourOwn) heading = "On your own";
  else heading = "Your first game";
  return (
    <section class="panel coach-panel" aria-labelledby="coach-heading" data-lesson={lesson?.number ?? ""}>
      <h2 id="coach-heading">{heading}</h2>
      {over ? (
        <p>You have played a whole game. Play a real one, or look back at this one step by step.</p>
      ) : lesson ? (
        <>
          <p class="coach-words" aria-live="polite">
            {lesson.coach ? (
              <RuleLinks text={lesson.coach} draw={(piece) => <RichText text={piece} seatName={seatName} />} />
            ) : (
              "Choose your move below."
            )}
          </p>
          {lesson.number !== null && message.hints && (
            <HintBox
              message={message}
              seat={seat}
              token={token}
              seatName={seatName}
              ask="Why? Show the hint"
              explain="Your chance to win after each move, as the bot estimates it from what you can see (the range: how sure it is):"
            />
          )}
        </>
      ) : (
        <p class="muted" aria-live="polite">
          {onYourOwn
            ? "Your opponents are playing; you play on your own now."
            : "Your opponents are playing; your next lesson comes with your next move."}
        </p>
      )}
    </section>
  );
}
