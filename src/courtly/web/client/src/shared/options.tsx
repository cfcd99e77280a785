// A game's options on a form (the lobby's and the offline one): each option as a field in a
// person's words, only the changed ones sent, and Courtly's recommended variant at a player count.
import type { GameInfo, OptionInfo, OptionValue, RecommendedVariant } from "../api";

/** The values an option allows when it names them, each with a person's name for it. */
function choices(option: OptionInfo): { value: string; label: string }[] | null {
  if (!option.choices?.length) return null;
  return option.choices.map((value, index) => ({
    value,
    label: option.choice_labels?.[index] ?? value.replace(/_/g, " "),
  }));
}

/** An option's value as a person reads it (a choice by its name, true and false as yes and no). */
function valueText(option: OptionInfo, value: OptionValue): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  return choices(option)?.find((c) => c.value === value)?.label ?? String(value);
}

export function OptionField({
  option,
  value,
  idPrefix,
  onChange,
}: {
  option: OptionInfo;
  value: OptionValue;
  idPrefix: string;
  onChange: (value: OptionValue) => void;
}) {
  const id = `${idPrefix}-${option.name}`;
  const helpId = `${id}-help`;
  // A person's words: the option's name and what it does; its key and rule ids are in the
  // form's "Advanced" details.
  const label = option.label;
  const help = (
    <span class="help" id={helpId}>
      {option.about} (default: {valueText(option, option.default)})
      {option.unofficial ? " — not in the official rules" : ""}
    </span>
  );
  if (typeof option.default === "boolean") {
    return (
      <div class="field field-check">
        <input
          type="checkbox"
          id={id}
          name={option.name}
          checked={value === true}
          aria-describedby={helpId}
          onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
        />
        <label for={id}>{label}</label>
        {help}
      </div>
    );
  }
  const values = choices(option);
  if (values) {
    return (
      <div class="field">
        <label for={id}>{label}</label>
        <select
          id={id}
          name={option.name}
          value={String(value)}
          aria-describedby={helpId}
          onChange={(e) => onChange((e.target as HTMLSelectElement).value)}
        >
          {values.map((v) => (
            <option key={v.value} value={v.value}>
              {v.label}
            </option>
          ))}
        </select>
        {help}
      </div>
    );
  }
  if (typeof option.default === "number") {
    const integer = option.allowed.includes("integer");
    // The bounds the server checks (a game's length is bounded among them).
    const [min, max] = [option.minimum, option.maximum];
    return (
      <div class="field">
        <label for={id}>{label}</label>
        <input
          type="number"
          id={id}
          name={option.name}
          inputMode={integer ? "numeric" : "decimal"}
          step={integer ? 1 : "any"}
          min={min}
          max={max}
          value={String(value)}
          aria-describedby={helpId}
          required
          onInput={(e) => {
            const text = (e.target as HTMLInputElement).value;
            onChange(text === "" ? "" : Number(text));
          }}
        />
        {help}
      </div>
    );
  }
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        type="text"
        id={id}
        name={option.name}
        value={String(value)}
        aria-describedby={helpId}
        onInput={(e) => onChange((e.target as HTMLInputElement).value)}
      />
      {help}
    </div>
  );
}

export function defaults(options: OptionInfo[]): Record<string, OptionValue> {
  return Object.fromEntries(options.map((o) => [o.name, o.default]));
}

/** Only the options changed from their defaults are sent: the server holds the defaults. */
export function changed(options: OptionInfo[], values: Record<string, OptionValue>): Record<string, OptionValue> {
  const result: Record<string, OptionValue> = {};
  for (const option of options) {
    const value = values[option.name];
    if (value !== undefined && value !== option.default) result[option.name] = value;
  }
  return result;
}

/** Courtly's variant at this player count, where it recommends one (the rules as written go
 * wrong there: see the game's rules page). */
export function recommendation(game: GameInfo, players: number): RecommendedVariant | undefined {
  return game.recommended.find((r) => r.players === players);
}

/** The options with the variants' keys set for this player count: the recommended variant's
 * values, or the rules as written when there is none or the person asked for them. Other
 * options keep what the person chose. */
export function withRecommendation(
  game: GameInfo,
  players: number,
  values: Record<string, OptionValue>,
  asWritten: boolean,
): Record<string, OptionValue> {
  const managed = new Set(game.recommended.flatMap((r) => Object.keys(r.options)));
  const chosen = asWritten ? undefined : recommendation(game, players);
  const next = { ...values };
  for (const option of game.options) {
    if (managed.has(option.name)) next[option.name] = chosen?.options[option.name] ?? option.default;
  }
  return next;
}

/** Whether the options are the variant's. */
export function playsVariant(variant: RecommendedVariant, values: Record<string, OptionValue>): boolean {
  return Object.entries(variant.options).every(([name, value]) => values[name] === value);
}

/** What the form says where Courtly recommends a variant: why, in one line with the measured
 * figure, and the other choice one click away. */
export function RecommendationNote({
  variant,
  playing,
  onChoose,
}: {
  variant: RecommendedVariant;
  playing: boolean;
  onChoose: (asWritten: boolean) => void;
}) {
  return (
    <div class="recommendation" role="note" data-testid="recommendation" data-playing={playing ? "variant" : "as-written"}>
      <p>
        {variant.reason}{" "}
        <strong>
          {playing ? `Chosen for you: ${variant.name}.` : "Chosen: the rules as written."}
        </strong>
      </p>
      <button type="button" onClick={() => onChoose(playing)}>
        {playing ? "Play the rules as written" : `Play ${variant.name}`}
      </button>
    </div>
  );
}

/** The number of players: each count the game takes, those beyond its rules marked. */
export function PlayersField({
  id,
  game,
  value,
  onPick,
}: {
  id: string;
  game: GameInfo;
  value: number;
  onPick: (players: number) => void;
}) {
  const official = new Set(game.official_players);
  return (
    <div class="field">
      <label for={id}>Players</label>
      <select
        id={id}
        name="players"
        value={String(value)}
        onChange={(e) => onPick(Number((e.target as HTMLSelectElement).value))}
      >
        {game.players.map((count) => (
          <option key={count} value={String(count)}>
            {count}
            {official.has(count) ? "" : " (unofficial)"}
          </option>
        ))}
      </select>
    </div>
  );
}
