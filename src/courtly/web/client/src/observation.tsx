// A game's observation (`state.view(seat).observation()`), drawn generically: nested keys and
// values made readable, cards as cards, seats by name, the viewer's own parts marked. Every game
// is drawn this way until it has a table of its own.
import type { ComponentChildren } from "preact";
import { Card, isCard, isCardPlace, type SeatNamer } from "./cards";

const SEAT = /^p(\d+)$/;
/** Keys that repeat what the page shows elsewhere. */
const SKIPPED = new Set(["game"]);

function humanize(key: string): string {
  return key.replace(/_/g, " ");
}

interface Context {
  seatName: SeatNamer;
  mine: number | null;
}

function isPrimitive(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function Value({ value, context }: { value: unknown; context: Context }): preact.JSX.Element {
  if (value === null || value === undefined) return <span class="muted">none</span>;
  if (typeof value === "boolean") return <span>{value ? "yes" : "no"}</span>;
  if (typeof value === "number") return <span>{Number.isInteger(value) ? value : value.toFixed(2)}</span>;
  if (typeof value === "string") {
    if (isCard(value)) return <Card code={value} />;
    const seat = SEAT.exec(value);
    if (seat) return <span class="seat-ref">{context.seatName(Number(seat[1]))}</span>;
    return <span>{value}</span>;
  }
  if (Array.isArray(value)) return <List items={value} context={context} />;
  if (typeof value === "object") return <Fields data={value as Record<string, unknown>} context={context} />;
  return <span>{String(value)}</span>;
}

function List({ items, context }: { items: unknown[]; context: Context }) {
  if (items.length === 0) return <span class="muted">none</span>;
  if (items.every(isCardPlace) && items.some(isCard)) {
    return (
      <span class="cards">
        {items.map((code, index) => (
          <Card key={index} code={code as string | null} />
        ))}
      </span>
    );
  }
  if (items.every(isPrimitive)) {
    const parts: ComponentChildren[] = [];
    items.forEach((item, index) => {
      if (index > 0) parts.push(", ");
      parts.push(<Value key={index} value={item} context={context} />);
    });
    return <span>{parts}</span>;
  }
  if (isFlatTable(items)) return <FlatTable rows={items} context={context} />;
  return (
    <div class="obs-list">
      {items.map((item, index) => (
        <div class="obs-item" key={index}>
          <Value value={item} context={context} />
        </div>
      ))}
    </div>
  );
}

/** Objects alike (a few keys, each a single value): a board's cells, a formation's slots, a
 * hand of character cards. Drawn as a table, a row each (a key some lack: blank there). */
function isFlatTable(items: unknown[]): items is Record<string, unknown>[] {
  if (items.length < 2) return false;
  const flat = items.every(
    (item) =>
      item !== null &&
      typeof item === "object" &&
      !Array.isArray(item) &&
      Object.values(item).every(isPrimitive),
  );
  return flat && columns(items as Record<string, unknown>[]).length <= 7;
}

function columns(rows: Record<string, unknown>[]): string[] {
  const keys: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
  return keys.filter((key) => !SKIPPED.has(key));
}

function FlatTable({ rows, context }: { rows: Record<string, unknown>[]; context: Context }) {
  const keys = columns(rows);
  return (
    <div class="obs-table-wrap">
      <table class="obs-table">
        <thead>
          <tr>
            {keys.map((key) => (
              <th scope="col" key={key}>
                {humanize(key)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const seat = typeof row.seat === "string" ? SEAT.exec(row.seat) : null;
            const mine = seat !== null && Number(seat[1]) === context.mine;
            return (
              <tr key={index} class={mine ? "mine" : undefined}>
                {keys.map((key) => (
                  <td key={key}>{key in row && <Value value={row[key]} context={context} />}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Fields({ data, context }: { data: Record<string, unknown>; context: Context }) {
  const seat = typeof data.seat === "string" ? SEAT.exec(data.seat) : null;
  const mine = seat !== null && Number(seat[1]) === context.mine;
  const entries = Object.entries(data).filter(
    ([key]) => !SKIPPED.has(key) && !(seat && key === "seat"),
  );
  return (
    <div class={mine ? "obs-fields mine" : "obs-fields"}>
      {seat && (
        <div class="obs-heading">
          {context.seatName(Number(seat[1]))}
          {mine && <span class="badge">you</span>}
        </div>
      )}
      <dl>
        {entries.map(([key, value]) => (
          <div class="obs-row" key={key}>
            <dt>{humanize(key)}</dt>
            <dd>
              <Value value={value} context={context} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

export function Observation({
  observation,
  seatName,
  mine,
}: {
  observation: unknown;
  seatName: SeatNamer;
  mine: number | null;
}) {
  // The top level's "seat" is the viewer, which the page says already.
  let shown = observation;
  if (shown && typeof shown === "object" && !Array.isArray(shown)) {
    const { seat: _viewer, ...rest } = shown as Record<string, unknown>;
    shown = rest;
  }
  return (
    <div class="observation">
      <Value value={shown} context={{ seatName, mine }} />
    </div>
  );
}
