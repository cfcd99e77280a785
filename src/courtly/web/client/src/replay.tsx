// The replay of a finished game, step by step (GET /api/tables/{id}/replay, which refuses a game
// that is not over): first, back, forward, last, a slider, the arrow keys; seen by one seat (what
// it knew at that step), by a spectator, or by every seat side by side with every event revealed.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { type ApiError, type ReplayStep } from "./api";
import { Board } from "./boards";
import { makePicker } from "./boards/board";
import { AnimationSwitch } from "./motion";
import { ChatLog } from "./shared/chat-log";
import { DealPanel } from "./shared/deal";
import { Links, TO_THE_LOBBY } from "./shared/links";
import { actorName, EventText } from "./shared/log";
import { Outcome, winnersText } from "./shared/result";
import { seatNamer } from "./shared/seats";
import { StoryPanel, StoryText } from "./shared/story";
import { useGameTitle } from "./shared/titles";
import { finishedLinks, useFinished } from "./shared/finished";
import "./around.css";

type Perspective = number | "spectator" | "all";

/** A replay draws and offers nothing to click: no card is a move. */
const NO_PICKER = makePicker([], null, () => undefined);

function perspectiveOf(text: string | null): Perspective {
  if (text === "spectator") return "spectator";
  if (text !== null && /^\d+$/.test(text)) return Number(text);
  return "all";
}

function stepOf(text: string | null): number | null {
  return text !== null && /^\d+$/.test(text) ? Number(text) : null;
}

export function ReplayPage({ table }: { table: string }) {
  const start = new URLSearchParams(window.location.search);
  const [perspective, setPerspective] = useState<Perspective>(() => perspectiveOf(start.get("seat")));
  // null: the last step (not known before the first answer).
  const [step, setStep] = useState<number | null>(() => stepOf(start.get("step")));
  const [shown, setShown] = useState<ReplayStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [missing, setMissing] = useState(false);
  const [loading, setLoading] = useState(false);
  const cache = useRef(new Map<string, ReplayStep>());
  const source = useFinished();
  const asked = useRef("");

  useEffect(() => {
    const key = `${perspective}/${step ?? "end"}`;
    asked.current = key;
    const show = (answer: ReplayStep) => {
      if (asked.current !== key) return; // an answer to a step already left
      setShown(answer);
      setError(null);
      setLoading(false);
      const url = `${source.replayPath(table)}?seat=${perspective}&step=${answer.step}`;
      window.history.replaceState(null, "", url);
    };
    const known = cache.current.get(key);
    if (known) {
      show(known);
      return;
    }
    setLoading(true);
    source.replay(table, step, perspective).then(
      (answer) => {
        cache.current.set(key, answer);
        cache.current.set(`${perspective}/${answer.step}`, answer);
        show(answer);
      },
      (e: ApiError) => {
        if (asked.current !== key) return;
        setLoading(false);
        setError(e.message);
        setMissing(e.status === 404);
      },
    );
  }, [table, step, perspective, source]);

  const steps = shown?.steps ?? 0;
  const at = shown?.step ?? 0;
  const go = (target: number) => setStep(Math.max(0, Math.min(steps, target)));

  // The arrow keys step (Home and End: first and last), except where a field uses them itself.
  const keys = useRef({ at, steps, go });
  keys.current = { at, steps, go };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      const target = event.target as HTMLElement | null;
      if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName)) return;
      const { at: now, steps: last, go: to } = keys.current;
      const moves: Record<string, number> = { ArrowLeft: now - 1, ArrowRight: now + 1, Home: 0, End: last };
      if (!(event.key in moves)) return;
      event.preventDefault();
      to(moves[event.key]);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const seatName = useMemo(() => seatNamer(shown?.seats ?? []), [shown?.seats]);
  const title = useGameTitle(shown?.game ?? "");

  if (error && !shown) {
    return (
      <section class="panel narrow">
        <h1>{missing ? "No such table" : "No replay"}</h1>
        <p role="alert" class="error">
          {error}
        </p>
        <Links
          links={
            missing ? [TO_THE_LOBBY] : [...finishedLinks(source, table, ["table"], { table: "Go to the table" }), TO_THE_LOBBY]
          }
        />
      </section>
    );
  }
  if (!shown) {
    return (
      <p class="panel" role="status">
        Loading the replay…
      </p>
    );
  }
  const last = shown.log.length ? shown.log[shown.log.length - 1] : null;
  // The step's event in the game's words, as the chosen seat was told it (with every seat: each
  // line told about it); the raw event where the story says nothing of it.
  const told = shown.story.filter(([index]) => index === shown.step - 1);
  const perspectives: { value: string; label: string }[] = [
    { value: "all", label: "Every seat, all revealed" },
    ...shown.seats.map((s) => ({ value: String(s.seat), label: `${seatName(s.seat)}'s view` })),
    { value: "spectator", label: "A spectator's view" },
  ];
  return (
    <div
      class="replay-page"
      data-step={shown.step}
      data-steps={shown.steps}
      data-seat={String(shown.seat)}
      aria-busy={loading ? "true" : undefined}
    >
      <h1 class="table-title">
        {title}
        <span class="muted"> · replay</span>
      </h1>
      <section class="panel" aria-labelledby="replay-heading">
        <h2 id="replay-heading" class="visually-hidden">
          Steps
        </h2>
        <div class="replay-controls">
          <button type="button" onClick={() => go(0)} disabled={at === 0} title="First step (Home)">
            <span aria-hidden="true">« </span>First
          </button>
          <button type="button" onClick={() => go(at - 1)} disabled={at === 0} title="One step back (←)">
            <span aria-hidden="true">‹ </span>Back
          </button>
          <button type="button" onClick={() => go(at + 1)} disabled={at === steps} title="One step forward (→)">
            Forward<span aria-hidden="true"> ›</span>
          </button>
          <button type="button" onClick={() => go(steps)} disabled={at === steps} title="Last step (End)">
            Last<span aria-hidden="true"> »</span>
          </button>
          <input
            type="range"
            min={0}
            max={steps}
            step={1}
            value={at}
            aria-label="Step"
            aria-valuetext={`step ${at} of ${steps}`}
            onInput={(event) => go(Number((event.target as HTMLInputElement).value))}
          />
          <span class="replay-step" role="status" data-testid="replay-step">
            Step {at} of {steps}
          </span>
        </div>
        <p class="replay-event">
          {last === null ? (
            <span class="muted">Before the first event. Use the arrow keys (← →) to step.</span>
          ) : (
            <>
              <span class="muted">This step:</span>{" "}
              {told.length > 0 ? (
                told.map(([, text], index) => <StoryText key={index} text={text} seatName={seatName} />)
              ) : (
                <>
                  <strong>{actorName(last[0], seatName)}</strong> <EventText what={last[1]} seatName={seatName} />
                </>
              )}
            </>
          )}
        </p>
        <div class="replay-perspective">
          <label for="replay-seat">Seen by</label>
          <select
            id="replay-seat"
            value={String(perspective)}
            onChange={(event) => setPerspective(perspectiveOf((event.target as HTMLSelectElement).value))}
          >
            {perspectives.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          <AnimationSwitch />
        </div>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </section>
      {shown.result && (
        <section class="panel ending" aria-labelledby="replay-result">
          <h2 id="replay-result">{winnersText(shown.result.winners, seatName)}</h2>
          <Outcome result={shown.result} seatName={seatName} />
        </section>
      )}
      <div class="replay-views">
            {shown.views.map((view) => {
              const heading = view.seat === null ? "A spectator's view" : `${seatName(view.seat)}'s view`;
              const id = `replay-view-${view.seat ?? "spectator"}`;
              return (
                <section
                  key={view.seat ?? "spectator"}
                  class="panel replay-view"
                  aria-labelledby={id}
                  data-view-seat={view.seat ?? "spectator"}
                >
                  <h2 id={id}>{heading}</h2>
                  <Board
                    game={shown.game}
                    observation={view.observation as Record<string, unknown>}
                    seat={view.seat}
                    players={shown.players}
                    toMove={shown.to_move}
                    seatName={seatName}
                    picker={NO_PICKER}
                  />
                </section>
              );
            })}
      </div>
      <StoryPanel
        story={shown.story}
        log={shown.log}
        seatName={seatName}
        last={shown.step > 0 ? { from: shown.step - 1, seat: -1 } : null}
        tag="this step"
        toldTo={shown.told_to}
      />
      {/* (a game played in this browser has no chat, and its deal is checked by courtly replay --verify) */}
      {source.online && <ChatLog table={table} seatName={seatName} />}
      {source.online && <DealPanel deal={shown.deal} table={table} over />}
      <Links links={[...finishedLinks(source, table, ["table", "review"]), TO_THE_LOBBY]} />
    </div>
  );
}
