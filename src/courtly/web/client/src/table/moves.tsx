// This seat's moves: the dock of move buttons, the moves of a card picked on the board, and the
// question asked before a move the game cautions against. A move is sent over REST, naming the
// view's version; the buttons wait for the view after it.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiError, type LegalAction, type SeatMessage } from "../api";
import { RichText, type SeatNamer } from "../cards";
import type { Picker } from "../boards/board";
import { teaching } from "./coach";
import { HintBox } from "./hints";
import { useTransport } from "./transport";

export function Moves({
  message,
  seat,
  token,
  active,
  seatName,
  picker,
}: {
  message: SeatMessage;
  seat: number;
  token: string;
  active: boolean;
  seatName: SeatNamer;
  picker: Picker;
}) {
  // The version a move was sent at: the buttons wait for the view after it (never a second move
  // from a page that has not seen the first one's effect).
  const [sentAt, setSentAt] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const waiting = sentAt !== null && sentAt === message.version;
  // Set at once (state waits for the next render): a double click sends one move.
  const inFlight = useRef<number | null>(null);
  useEffect(() => {
    if (sentAt !== null && sentAt !== message.version) setSentAt(null);
    if (inFlight.current !== null && inFlight.current !== message.version) inFlight.current = null;
  }, [message.version, sentAt]);

  const transport = useTransport();
  const send = useCallback(
    async (action: LegalAction) => {
      const version = message.version;
      if (inFlight.current === version) return;
      inFlight.current = version;
      setSentAt(version);
      setError(null);
      // A move names its version, so the same request sent again after a network failure is
      // applied once: retrying can neither lose nor repeat it.
      for (let attempt = 0; ; attempt++) {
        try {
          await transport.move(message.table, seat, action.id, version, token);
          return;
        } catch (e) {
          const failure = e as ApiError;
          if (failure.status === 0 && attempt < 4) {
            await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
            continue;
          }
          setSentAt(null);
          inFlight.current = null;
          setError(`“${action.label}” was not played: ${failure.message}`);
          return;
        }
      }
    },
    [message.table, message.version, seat, token, transport],
  );

  // A move the game cautions against (it throws the game away) is asked about first. The
  // question stands while that move is still this seat's to make with the same warning (another
  // seat moving at the same time brings a new view, and the answer then plays the move as this
  // view numbers it); it is forgotten once the move is gone or warned about differently.
  const [asked, setAsked] = useState<{ action: LegalAction; version: number } | null>(null);
  const confirming =
    asked === null
      ? null
      : asked.version === message.version
        ? asked.action
        : (message.legal_actions.find(
            (action) => action.text === asked.action.text && action.caution === asked.action.caution,
          ) ?? null);
  const attempt = (action: LegalAction) => {
    if (waiting) return;
    if (action.caution) setAsked({ action, version: message.version });
    else void send(action);
  };
  const cautionBox = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The least harmful answer takes the focus (keyboard play lands on it, not on the move).
    if (confirming) cautionBox.current?.querySelector<HTMLButtonElement>(".caution-cancel")?.focus();
  }, [confirming]);

  // Keyboard play: when it becomes this seat's turn and nothing has the focus (the buttons of
  // the last turn are gone), the first move takes it.
  const buttons = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!active) return;
    const focused = document.activeElement;
    if (focused === null || focused === document.body) {
      buttons.current?.querySelector<HTMLButtonElement>("button.action")?.focus();
    }
  }, [active, message.version]);

  // A card picked on the board: its moves, docked at the bottom of the screen, take the focus
  // (the keyboard goes on from there); Escape or Cancel drops the card, and the focus goes back
  // to it.
  const pickedMoves = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (picker.picked !== null) {
      pickedMoves.current?.querySelector<HTMLButtonElement>("button.confirm")?.focus();
    }
  }, [picker.picked]);
  const unpick = () => {
    const card = picker.picked;
    if (card === null) return;
    picker.pick(card);
    window.setTimeout(() => {
      document.querySelector<HTMLButtonElement>(`button[data-pick="${CSS.escape(card)}"]`)?.focus();
    });
  };

  if (!active && !error) return null;
  return (
    <section class="panel actions" aria-labelledby="actions-heading">
      <h2 id="actions-heading">Your moves</h2>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {active && confirming && (
        <div
          class="caution"
          role="alertdialog"
          aria-labelledby="caution-heading"
          aria-describedby="caution-text"
          ref={cautionBox}
        >
          <p id="caution-heading">
            <strong>
              Careful: <RichText text={confirming.label} seatName={seatName} />
            </strong>
          </p>
          <p id="caution-text" data-testid="caution">
            <RichText text={confirming.caution ?? ""} seatName={seatName} />
          </p>
          <div class="caution-buttons">
            <button
              type="button"
              class="action caution-confirm"
              data-action={confirming.text}
              aria-disabled={waiting ? "true" : undefined}
              onClick={() => {
                if (!waiting) {
                  setAsked(null);
                  void send(confirming);
                }
              }}
            >
              Play it anyway
            </button>
            <button type="button" class="caution-cancel" onClick={() => setAsked(null)}>
              Choose another move
            </button>
          </div>
        </div>
      )}
      {active && picker.picked !== null && (
        <div
          class="picked-moves"
          role="group"
          aria-label={`Moves with ${picker.picked}`}
          ref={pickedMoves}
          onKeyDown={(event) => {
            if (event.key === "Escape") unpick();
          }}
        >
          <p>
            Picked <RichText text={picker.picked} seatName={seatName} />: play
          </p>
          {picker.actionsWith(picker.picked).map((action) => (
            <MoveButton
              key={`picked-${action.id}`}
              kind="action confirm primary"
              action={action}
              waiting={waiting}
              seatName={seatName}
              play={attempt}
            />
          ))}
          <button type="button" onClick={unpick}>
            Cancel
          </button>
        </div>
      )}
      {active && (
        <div class="action-buttons" ref={buttons}>
          {message.legal_actions.map((action) => (
            <MoveButton
              key={`${action.id}-${action.text}`}
              kind="action"
              action={action}
              waiting={waiting}
              seatName={seatName}
              play={attempt}
            />
          ))}
        </div>
      )}
      {waiting && <p class="muted">Sending…</p>}
      {active && message.hints && message.status === "playing" && !teaching(message) && (
        <HintBox message={message} seat={seat} token={token} seatName={seatName} play={attempt} />
      )}
    </section>
  );
}

/** A move's button, in the game's words (the action's label; its text is what is sent, and
 * what the board's cards are matched with): aria-disabled, not disabled, while a move is on its
 * way, so that it keeps the keyboard's focus (a disabled one would drop it). */
function MoveButton({
  kind,
  action,
  waiting,
  seatName,
  play,
}: {
  kind: string;
  action: LegalAction;
  waiting: boolean;
  seatName: SeatNamer;
  play: (action: LegalAction) => void;
}) {
  return (
    <button
      type="button"
      class={kind}
      data-action={action.text}
      aria-disabled={waiting ? "true" : undefined}
      title={action.caution}
      onClick={() => play(action)}
    >
      {/* One piece: the label's words and cards flow and wrap as a sentence, never as columns. */}
      <span class="action-label">
        <RichText text={action.label} seatName={seatName} />
      </span>
    </button>
  );
}
