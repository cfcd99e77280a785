// A finished game's review (POST then GET /api/tables/{id}/review): each seat's win chance over
// the game as a graph, the seats' accuracy, errors and luck, every decision with what each of its
// moves was worth, and the board as the deciding seat saw it (the replay endpoint, that seat's
// view at that step). Every estimate was made by the server from the deciding seat's view alone.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type ApiError, type Review, type ReviewJob, type ReplayStep, type SeatPublic } from "./api";
import { Board } from "./boards";
import { makePicker } from "./boards/board";
import { RichText, type SeatNamer } from "./cards";
import { finishedLinks, useFinished } from "./shared/finished";
import { percent } from "./shared/format";
import { Links, TO_THE_LOBBY } from "./shared/links";
import { seatNamer } from "./shared/seats";
import { StoryText } from "./shared/story";
import { useGameTitle } from "./shared/titles";
import "./review.css";

type Decision = Review["decisions"][number];

/** The review draws and offers nothing to click on its boards: no card is a move. */
const NO_PICKER = makePicker([], null, () => undefined);
const POLL_MS = 1000;
const LABEL_MARKS: Record<string, string> = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const NOTABLE_LUCK = 0.1;
/** The lines of the story shown before a decision: what the seat had just been told. */
const STORY_SHOWN = 6;

const seatOf = (text: string) => Number(text.slice(1));
const points = (value: number) => `${value >= 0 ? "+" : "−"}${Math.abs(100 * value).toFixed(1)}`;

export function ReviewPage({ table }: { table: string }) {
  const [job, setJob] = useState<ReviewJob | null>(null);
  const [error, setError] = useState<string | null>(null);
  // No such table: asking again cannot help.
  const [missing, setMissing] = useState(false);
  const [seats, setSeats] = useState<SeatPublic[]>([]);
  const [attempt, setAttempt] = useState(0);
  const source = useFinished();

  useEffect(() => {
    source.table(table).then(
      (summary) => setSeats(summary.seats),
      () => undefined,
    );
  }, [table, source]);

  // Start the review (or find it made), then follow it until it is done or failed.
  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const follow = (answer: ReviewJob) => {
      if (stopped) return;
      setJob(answer);
      setError(null);
      if (answer.status === "queued" || answer.status === "running") {
        timer = window.setTimeout(() => source.review(table).then(follow, fail), POLL_MS);
      }
    };
    const fail = (e: ApiError) => {
      if (stopped) return;
      setError(e.message);
      setMissing(e.status === 404);
      // No answer at all (the network, a restart): keep asking; a refusal is final.
      if (e.status === 0) timer = window.setTimeout(() => source.review(table).then(follow, fail), 3 * POLL_MS);
    };
    source.startReview(table).then(follow, fail);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [table, attempt, source]);

  const seatName = useMemo(() => seatNamer(seats), [seats]);
  const game = job?.review?.game ?? "";
  const title = useGameTitle(game);

  const retry = () => setAttempt((n) => n + 1);
  if (error && !job) {
    return missing ? (
      <Failed heading="No such table" detail={error} table={table} />
    ) : (
      <Failed heading="No review" detail={error} table={table} retry={retry} />
    );
  }
  if (!job || job.status === "queued" || job.status === "running") {
    const total = job?.total ?? 0;
    return (
      <section class="panel narrow review-waiting" aria-busy="true">
        <h1>Reviewing the game</h1>
        <p>
          Courtly's search weighs every choice of every seat from what that seat could see
          {job?.budget.iterations ? ` (${job.budget.iterations} iterations a decision)` : ""}.
        </p>
        <progress
          max={total || 1}
          value={total ? job?.done ?? 0 : undefined}
          aria-label="Review progress"
        />
        <p role="status" class="muted">
          {!job || job.status === "queued"
            ? "Waiting for the reviews started before this one…"
            : total
              ? // A search per decision, and playouts per position for the luck: each counted.
                `Reviewing: search ${job.done} of ${total}…`
              : "Starting…"}
        </p>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </section>
    );
  }
  if (job.status === "failed" || !job.review) {
    const detail = job.detail ?? "The server could not review this game.";
    return <Failed heading="The review failed" detail={detail} table={table} retry={retry} />;
  }
  return <ReviewView review={job.review} table={table} title={title} seatName={seatName} />;
}

/** A review that could not be had: why, a way to ask again (unless there is no such table),
 * and the ways out. */
function Failed(props: { heading: string; detail: string; table: string; retry?: () => void }) {
  return (
    <section class="panel narrow">
      <h1>{props.heading}</h1>
      <p role="alert" class="error">
        {props.detail}
      </p>
      {props.retry ? (
        <>
          <button type="button" onClick={props.retry}>
            Try again
          </button>
          <WaysOut table={props.table} />
        </>
      ) : (
        <Links links={[TO_THE_LOBBY]} />
      )}
    </section>
  );
}

function WaysOut({ table }: { table: string }) {
  const source = useFinished();
  return <Links links={[...finishedLinks(source, table, ["replay", "table"]), TO_THE_LOBBY]} />;
}

function ReviewView({
  review,
  table,
  title,
  seatName,
}: {
  review: Review;
  table: string;
  title: string;
  seatName: SeatNamer;
}) {
  const decisions = review.decisions;
  const [selected, setSelected] = useState<number | null>(() => worstDecision(decisions));
  const [onlyErrors, setOnlyErrors] = useState(false);
  const listed = decisions
    .map((decision, position) => ({ decision, position }))
    .filter(({ decision }) => !onlyErrors || decision.label !== null);
  const step = (by: number) => {
    if (decisions.length === 0) return;
    setSelected((now) => Math.max(0, Math.min(decisions.length - 1, (now ?? -1) + by)));
  };

  // The arrow keys go from decision to decision, except where a field uses them itself.
  const keys = useRef(step);
  keys.current = step;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
      // The graph's frame on a phone: there the arrows scroll it.
      if (target?.matches(".review-graph") && target.scrollWidth > target.clientWidth) return;
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      event.preventDefault();
      keys.current(event.key === "ArrowLeft" ? -1 : 1);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // The list scrolls by itself (it is long): keep the decision shown in sight there, without
  // moving the page.
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const box = list.current;
    const item = box?.querySelector<HTMLElement>("button.selected");
    if (!box || !item) return;
    const top = item.offsetTop; // the list is the item's offset parent (review.css)
    if (top < box.scrollTop) box.scrollTop = top;
    else if (top + item.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = top + item.offsetHeight - box.clientHeight;
    }
  }, [selected, onlyErrors]);

  const winners = review.returns.flatMap((value, seat) => (value > 0 ? [seat] : []));
  const thresholds = ["inaccuracy", "mistake", "blunder"]
    .map((label) => `${label} ≥ ${Math.round(100 * (review.thresholds[label] ?? 0))}`)
    .join(", ");
  const chosen = selected === null ? null : decisions[selected] ?? null;
  return (
    <div class="review-page" data-decisions={decisions.length}>
      <h1 class="table-title">
        {title || review.game}
        <span class="muted"> · review</span>
      </h1>
      <section class="panel" aria-labelledby="review-result">
        <h2 id="review-result">
          {winners.length === 0
            ? "No one won"
            : `${winners.map(seatName).join(" and ")} won`}
        </h2>
        <p class="muted">
          {review.events} events; every choice weighed by search from the deciding seat's view
          {review.budget.iterations ? ` (${review.budget.iterations} iterations a decision)` : ""}.
          A loss is the best move's win chance minus the chosen one's, in points: {thresholds}.
        </p>
        <WinChanceGraph review={review} selected={selected} onSelect={setSelected} seatName={seatName} />
      </section>
      <Summaries review={review} seatName={seatName} />
      <div class="review-columns">
        <section class="panel review-decisions" aria-labelledby="review-decisions-heading">
          <h2 id="review-decisions-heading">Decisions</h2>
          <label class="review-filter">
            <input
              type="checkbox"
              checked={onlyErrors}
              onChange={(event) => setOnlyErrors((event.target as HTMLInputElement).checked)}
            />{" "}
            Only inaccuracies, mistakes and blunders
          </label>
          {listed.length === 0 ? (
            <p class="muted">No decision {onlyErrors ? "was an error" : "had a choice"}.</p>
          ) : (
            <ol class="review-list" ref={list}>
              {listed.map(({ decision, position }) => (
                <li key={position}>
                  <button
                    type="button"
                    class={`review-decision${position === selected ? " selected" : ""}${decision.label ? ` label-${decision.label}` : ""}`}
                    aria-pressed={position === selected}
                    data-index={decision.index}
                    onClick={() => setSelected(position)}
                  >
                    Move {decision.index + 1} · {seatName(seatOf(decision.seat))} ·{" "}
                    <RichText text={decision.chosen.action} seatName={seatName} />
                    {decision.loss > 0.0005 && ` · ${points(-decision.loss)} points`}
                    {decision.label && ` · ${decision.label} ${LABEL_MARKS[decision.label]}`}
                  </button>
                </li>
              ))}
            </ol>
          )}
        </section>
        {chosen && (
          <DecisionPanel
            key={`${chosen.index}-${chosen.seat}`}
            decision={chosen}
            position={selected ?? 0}
            count={decisions.length}
            table={table}
            game={review.game}
            players={review.players}
            seatName={seatName}
            step={step}
          />
        )}
      </div>
      <Luck review={review} seatName={seatName} />
      <WaysOut table={table} />
    </div>
  );
}

/** The costliest decision, to show first (the first one if none lost anything). */
function worstDecision(decisions: Decision[]): number | null {
  if (decisions.length === 0) return null;
  let worst = 0;
  decisions.forEach((decision, position) => {
    if (decision.loss > decisions[worst].loss) worst = position;
  });
  return worst;
}

const WIDTH = 720;
const HEIGHT = 240;
const LEFT = 40;
const BOTTOM = 26;
const TOP = 10;
const RIGHT = 10;

function WinChanceGraph({
  review,
  selected,
  onSelect,
  seatName,
}: {
  review: Review;
  selected: number | null;
  onSelect: (position: number) => void;
  seatName: SeatNamer;
}) {
  const events = Math.max(1, review.events);
  const x = (index: number) => LEFT + ((WIDTH - LEFT - RIGHT) * index) / events;
  const y = (value: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - value);
  const seats = Object.keys(review.win_chance);
  const chosen = selected === null ? null : review.decisions[selected];
  const label = `Each seat's estimated chance to win over the ${review.events} events of the game, from its own view`;
  // A click anywhere on the graph selects the decision nearest in time (of any seat).
  const pick = (event: MouseEvent) => {
    const svg = event.currentTarget as SVGSVGElement;
    const box = svg.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * WIDTH;
    const index = ((at - LEFT) / (WIDTH - LEFT - RIGHT)) * events;
    let best: number | null = null;
    review.decisions.forEach((decision, position) => {
      if (best === null || Math.abs(decision.index - index) < Math.abs(review.decisions[best].index - index)) {
        best = position;
      }
    });
    if (best !== null) onSelect(best);
  };
  return (
    // Focusable: on a phone the graph scrolls sideways inside it, and keys must reach that.
    <figure class="review-graph" tabIndex={0}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={label}
        onClick={pick}
        data-testid="win-chance-graph"
      >
        <title>{label}</title>
        {[0, 0.25, 0.5, 0.75, 1].map((value) => (
          <g key={value} class={value === 0.5 ? "grid grid-half" : "grid"}>
            <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(value)} y2={y(value)} />
            <text x={LEFT - 6} y={y(value) + 4} text-anchor="end">
              {percent(value)}
            </text>
          </g>
        ))}
        <text class="axis" x={WIDTH - RIGHT} y={HEIGHT - 6} text-anchor="end">
          events →
        </text>
        {chosen && <line class="cursor" x1={x(chosen.index)} x2={x(chosen.index)} y1={TOP} y2={HEIGHT - BOTTOM} />}
        {seats.map((seatText) => {
          const seat = seatOf(seatText);
          const path = review.win_chance[seatText]
            .map(([index, value], i) => `${i === 0 ? "M" : "L"}${x(index).toFixed(1)},${y(value).toFixed(1)}`)
            .join(" ");
          return <path key={seatText} class={`line seat-colour-${seat % 6}`} d={path} data-seat={seat} />;
        })}
        {review.decisions.map((decision, position) => {
          const seat = seatOf(decision.seat);
          const big = decision.label !== null || position === selected;
          return (
            <circle
              key={position}
              class={`marker seat-colour-${seat % 6}${decision.label ? ` label-${decision.label}` : ""}${position === selected ? " selected" : ""}`}
              cx={x(decision.index)}
              cy={y(decision.best.mean)}
              r={big ? 5 : 2.5}
              data-position={position}
              onClick={(event) => {
                event.stopPropagation();
                onSelect(position);
              }}
            />
          );
        })}
        {review.decisions.map((decision, position) =>
          decision.label === null ? null : (
            <text
              key={`mark-${position}`}
              class={`mark label-${decision.label}`}
              x={x(decision.index)}
              y={y(decision.best.mean) + (decision.best.mean > 0.85 ? 18 : -9)}
              text-anchor="middle"
              aria-hidden="true"
            >
              {LABEL_MARKS[decision.label]}
            </text>
          ),
        )}
      </svg>
      <figcaption>
        <ul class="review-legend">
          {seats.map((seatText) => (
            <li key={seatText}>
              <span class={`swatch seat-colour-${seatOf(seatText) % 6}`} aria-hidden="true" />
              {seatName(seatOf(seatText))}
            </li>
          ))}
          <li class="muted">Big dots: errors (?! ? ??) and the decision shown; click one, or use ← →.</li>
        </ul>
      </figcaption>
    </figure>
  );
}

function Summaries({ review, seatName }: { review: Review; seatName: SeatNamer }) {
  return (
    <section class="panel" aria-labelledby="review-seats-heading">
      <h2 id="review-seats-heading">Seats</h2>
      <div class="review-table-wrap">
        <table class="review-table">
          <thead>
            <tr>
              <th scope="col">Seat</th>
              <th scope="col">Played by</th>
              <th scope="col">Decisions</th>
              <th scope="col">Accuracy</th>
              <th scope="col">Inaccuracies</th>
              <th scope="col">Mistakes</th>
              <th scope="col">Blunders</th>
              <th scope="col">Luck (points)</th>
              <th scope="col">Result</th>
              <th scope="col">Luck-adjusted</th>
            </tr>
          </thead>
          <tbody>
            {review.summaries.map((summary) => (
              <tr key={summary.seat} data-seat={summary.seat}>
                <th scope="row">{seatName(seatOf(summary.seat))}</th>
                <td>{summary.agent || "–"}</td>
                <td>{summary.decisions}</td>
                <td>{summary.accuracy === null ? "–" : summary.accuracy.toFixed(1)}</td>
                <td>{summary.errors.inaccuracy ?? 0}</td>
                <td>{summary.errors.mistake ?? 0}</td>
                <td>{summary.errors.blunder ?? 0}</td>
                <td>
                  {points(summary.luck)} ± {(100 * summary.luck_stderr).toFixed(1)}
                </td>
                <td>{summary.result === null ? "–" : summary.result.toFixed(2)}</td>
                <td>{summary.luck_adjusted_result === null ? "–" : summary.luck_adjusted_result.toFixed(2)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p class="muted">
        Accuracy: lichess's formula, 100 when every choice was the best. Luck: how far the draws
        and deals moved the seat's chance to win; the luck-adjusted result takes it away (a dash
        when the luck's noise passes 20 points at this budget).
      </p>
    </section>
  );
}

function DecisionPanel({
  decision,
  position,
  count,
  table,
  game,
  players,
  seatName,
  step,
}: {
  decision: Decision;
  position: number;
  count: number;
  table: string;
  game: string;
  players: number;
  seatName: SeatNamer;
  step: (by: number) => void;
}) {
  const seat = seatOf(decision.seat);
  const [board, setBoard] = useState<ReplayStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const source = useFinished();
  useEffect(() => {
    let stopped = false;
    source.replay(table, decision.index, seat).then(
      (answer) => !stopped && setBoard(answer),
      (e: ApiError) => !stopped && setError(e.message),
    );
    return () => {
      stopped = true;
    };
  }, [table, decision.index, seat, source]);
  const name = seatName(seat);
  return (
    <section class="panel review-decision-panel" aria-labelledby="review-decision-heading" data-index={decision.index}>
      <h2 id="review-decision-heading">
        Move {decision.index + 1}: {name}
        {decision.label && (
          <span class={`review-label label-${decision.label}`}>
            {" "}
            {decision.label} {LABEL_MARKS[decision.label]}
          </span>
        )}
      </h2>
      <div class="review-steps">
        <button type="button" onClick={() => step(-1)} disabled={position === 0}>
          <span aria-hidden="true">‹ </span>Previous decision
        </button>
        <button type="button" onClick={() => step(1)} disabled={position >= count - 1}>
          Next decision<span aria-hidden="true"> ›</span>
        </button>
      </div>
      <p>
        {name} played <RichText text={decision.chosen.action} seatName={seatName} /> (
        {percent(decision.chosen.mean)} to win)
        {decision.best.action === decision.chosen.action ? (
          ", the best move."
        ) : (
          <>
            ; the best was <RichText text={decision.best.action} seatName={seatName} /> (
            {percent(decision.best.mean)}): {points(-decision.loss)} points.
          </>
        )}
      </p>
      <table class="review-table review-estimates">
        <caption>Every move {name} had, as {name}'s search saw it</caption>
        <thead>
          <tr>
            <th scope="col">Move</th>
            <th scope="col">Chance to win</th>
            <th scope="col">95% interval</th>
            <th scope="col">Searched</th>
          </tr>
        </thead>
        <tbody>
          {decision.actions.map((action) => {
            const isChosen = action.action === decision.chosen.action;
            const isBest = action.action === decision.best.action;
            return (
              <tr key={action.id} class={isChosen ? "chosen" : undefined} data-action={action.action}>
                <th scope="row">
                  <RichText text={action.action} seatName={seatName} />
                  {isChosen && <span class="review-tag"> played</span>}
                  {isBest && <span class="review-tag review-tag-best"> best</span>}
                </th>
                <td>{percent(action.mean)}</td>
                <td>
                  {percent(action.low)}–{percent(action.high)}
                </td>
                <td>{action.visits}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {board && board.story.length > 0 && (
        <>
          <h3>What {name} was told just before</h3>
          <ol class="story review-story" aria-label={`What ${name} was told just before this move`}>
            {board.story.slice(-STORY_SHOWN).map(([index, text], position) => (
              <li key={`${index}-${position}`} class="story-line" data-event={index}>
                <StoryText text={text} seatName={seatName} />
              </li>
            ))}
          </ol>
        </>
      )}
      <h3>The table as {name} saw it</h3>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {board ? (
        <div class="review-board" data-view-seat={seat}>
          <Board
            game={game}
            observation={board.views[0].observation as Record<string, unknown>}
            seat={seat}
            players={players}
            toMove={board.to_move}
            seatName={seatName}
            picker={NO_PICKER}
          />
        </div>
      ) : (
        !error && <p class="muted">Loading the table…</p>
      )}
    </section>
  );
}

function Luck({ review, seatName }: { review: Review; seatName: SeatNamer }) {
  const notable = review.chance.filter((step) =>
    Object.values(step.luck).some((value) => Math.abs(value) >= NOTABLE_LUCK),
  );
  return (
    <section class="panel" aria-labelledby="review-luck-heading">
      <h2 id="review-luck-heading">Luck</h2>
      {notable.length === 0 ? (
        <p class="muted">No draw or deal moved a seat's chance to win by 10 points or more.</p>
      ) : (
        <ul class="review-luck">
          {notable.map((step) => (
            <li key={step.first}>
              <span class="muted">Event {step.first + 1}:</span>{" "}
              <RichText text={step.outcomes.join(" ")} seatName={seatName} />
              {" — "}
              {Object.entries(step.luck)
                .map(([seatText, value]) => `${seatName(seatOf(seatText))} ${value >= 0 ? "lucky" : "unlucky"} ${points(value)}`)
                .join(", ")}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
