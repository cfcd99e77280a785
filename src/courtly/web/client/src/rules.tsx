// A game's rules summary with Courtly's resolutions: the very text `courtly rules GAME` prints,
// served by GET /api/games/{game}/rules. It is written for a terminal (lines, indents, aligned
// columns), so its lines are kept, with two changes for a page: a line the terminal text wrapped
// (a long line, then one indented deeper) is joined again, and a line too long for the screen
// wraps under its own indent instead of running off it.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "./api";
import { Links, TO_THE_LOBBY } from "./shared/links";
import "./around.css";

interface Rules {
  game: string;
  title: string;
  rules: string;
}

const known = new Map<string, Rules>();

function useRules(game: string, wanted: boolean): { rules: Rules | null; error: string | null } {
  const [rules, setRules] = useState<Rules | null>(() => known.get(game) ?? null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted || known.has(game)) return;
    let stopped = false;
    api.rules(game).then(
      (answer) => {
        known.set(game, answer);
        if (!stopped) setRules(answer);
      },
      (e: ApiError) => {
        if (!stopped) setError(e.message);
      },
    );
    return () => {
      stopped = true;
    };
  }, [game, wanted]);
  return { rules: rules ?? known.get(game) ?? null, error };
}

interface Line {
  indent: number;
  text: string;
}

/** A line at least this long (indent included) was wrapped by the text's author. */
const WRAPPED = 76;

/** The text's blocks (split at blank lines), each a list of lines with their indents; a line
 * that carries on an indented item (it follows a wrapped line and is indented deeper than the
 * item's start: "CTC-6  deadlock guard: ... must give" / "         you a Queen ...") is joined
 * to it. */
function blocks(text: string): Line[][] {
  const result: Line[][] = [];
  let block: Line[] = [];
  let previous = 0; // the length of the raw line before
  for (const raw of text.replace(/\s+$/, "").split("\n")) {
    const line = raw.trimEnd();
    if (line.trim() === "") {
      if (block.length) result.push(block);
      block = [];
      previous = 0;
      continue;
    }
    const indent = line.length - line.trimStart().length;
    const item = block[block.length - 1];
    if (item && item.indent > 0 && previous >= WRAPPED && indent > item.indent) {
      item.text = `${item.text} ${line.trimStart()}`;
    } else {
      block.push({ indent, text: line.trimStart() });
    }
    previous = line.length;
  }
  if (block.length) result.push(block);
  return result;
}

/** A heading: an unindented short line that the block's indented lines follow ("Setup",
 * "A turn has three steps", "How Courtly settles the sheet's open points"). */
function isHeading(block: Line[], index: number): boolean {
  const line = block[index];
  const next = block[index + 1];
  return line.indent === 0 && next !== undefined && next.indent > 0 && line.text.length <= 72;
}

export function RulesText({ text, level = 3 }: { text: string; level?: 2 | 3 }) {
  const Heading = level === 2 ? "h2" : "h3";
  const parts = blocks(text);
  return (
    <div class="rules-text" data-testid="rules-text">
      {parts.map((block, blockIndex) => (
        <div class="rules-block" key={blockIndex}>
          {block.map((line, index) =>
            isHeading(block, index) ? (
              <Heading class="rules-heading" key={index}>
                {line.text}
              </Heading>
            ) : (
              <p
                key={index}
                class={blockIndex === 0 && index === 0 ? "rules-line rules-title" : "rules-line"}
                style={{ "--indent": line.indent }}
              >
                {line.text}
              </p>
            ),
          )}
        </div>
      ))}
    </div>
  );
}

/** The rules on a table page: folded until opened (fetched then). */
export function RulesPanel({ game, title }: { game: string; title: string }) {
  const [open, setOpen] = useState(false);
  const { rules, error } = useRules(game, open);
  return (
    <details
      class="panel rules-panel"
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        <h2 class="summary-heading">Rules of {title}</h2>
      </summary>
      {open && !rules && !error && <p role="status">Loading the rules…</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {rules && <RulesText text={rules.rules} />}
    </details>
  );
}

/** /rules/GAME: a game's rules on a page of their own (from the lobby). */
export function RulesPage({ game }: { game: string }) {
  const { rules, error } = useRules(game, true);
  useEffect(() => {
    if (rules) document.title = `${rules.title}: rules · Courtly`;
  }, [rules]);
  return (
    <section class="panel rules-page" aria-labelledby="rules-title">
      <h1 id="rules-title">{rules ? `${rules.title}: the rules` : "The rules"}</h1>
      {!rules && !error && <p role="status">Loading the rules…</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {rules && <RulesText text={rules.rules} level={2} />}
      <Links links={[TO_THE_LOBBY]} />
    </section>
  );
}
