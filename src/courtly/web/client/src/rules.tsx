// A game's rules, from GET /api/games/{game}/rules: on a page of their own (/rules/GAME), the
// game's full rules document (docs/rules/<game>.md) drawn by rules-document.tsx, opening with
// "In short", the summary `courtly rules GAME` prints; folded on a table page, that summary with a
// way to the whole rules. A rule id in the summary links to its rule. The document's drawing (and
// its Markdown parser) is loaded by the rules page only: the lobby and the tables go without.
//
// The summary is written for a terminal (lines, indents, aligned columns), so its lines are kept,
// with two changes for a page: a line the terminal text wrapped (a long line, then one indented
// deeper) is joined again, and a line too long for the screen wraps under its own indent instead
// of running off it.
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, ApiError, type Rules } from "./api";
import type { RulesDocument } from "./rules-document";
import { rulesPath } from "./router";
import { Links, TO_THE_LOBBY } from "./shared/links";
import { ruleAnchor, RuleLinks } from "./shared/rule-links";
import "./around.css";
import "./rules.css";

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

/** A line that goes on with the sentence of the line before: it starts in lower case (or with a
 * bracket) and is no item of a column layout ("borrow 6H      after a Queen: ..."). */
function goesOn(text: string): boolean {
  return /^[a-z(]/.test(text) && !/\S {2,}\S/.test(text);
}

/** The text's blocks (split at blank lines), each a list of lines with their indents; a line
 * that carries on an indented item after a wrapped line is joined to it: one indented deeper
 * than the item's start ("CTC-6  deadlock guard: ... must give" / "         you a Queen ..."),
 * or one at the same indent that goes on with its sentence ("... then the start moves one" /
 * "  seat clockwise each hand)"). */
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
    const wrapped = item !== undefined && previous >= WRAPPED;
    const deeper = wrapped && item.indent > 0 && indent > item.indent;
    if (deeper || (wrapped && indent === item.indent && goesOn(line.trimStart()))) {
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

/** The summary `courtly rules` prints, its rule ids linked: to their anchors on the rules page
 * of ``here`` (the game whose page this is), else to the rules page in a new tab. */
export function RulesText({ text, here }: { text: string; here?: string }) {
  const parts = blocks(text);
  return (
    <div class="rules-text" data-testid="rules-text">
      {parts.map((block, blockIndex) => (
        <div class="rules-block" key={blockIndex}>
          {block.map((line, index) =>
            isHeading(block, index) ? (
              <h3 class="rules-heading" key={index}>
                {line.text}
              </h3>
            ) : (
              <p
                key={index}
                class={blockIndex === 0 && index === 0 ? "rules-line rules-title" : "rules-line"}
                style={{ "--indent": line.indent }}
              >
                <RuleLinks text={line.text} here={here} />
              </p>
            ),
          )}
        </div>
      ))}
    </div>
  );
}

/** The rules on a table page: folded until opened (fetched then). The game goes on in this
 * tab, so the whole rules open in another. */
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
      {rules && (
        <>
          <RulesText text={rules.rules} />
          <p class="rules-more">
            <a href={rulesPath(game)} target="_blank" rel="noopener">
              All the rules of {title}, with worked examples (opens in a new tab)
            </a>
          </p>
        </>
      )}
    </details>
  );
}

/** The anchor the address names ("#rg-6"), if any. */
function wantedAnchor(): string {
  try {
    return decodeURIComponent(window.location.hash.slice(1));
  } catch {
    return window.location.hash.slice(1);
  }
}

/** The element the address's anchor names, scrolled to, marked and focused once the document
 * is drawn (the browser looked for it before the rules arrived); null when it names none. */
function useAnchorTarget(ready: boolean): string | null {
  const [missing, setMissing] = useState<string | null>(null);
  useEffect(() => {
    if (!ready) return;
    const show = () => {
      document.querySelectorAll(".is-target").forEach((element) => element.classList.remove("is-target"));
      const anchor = wantedAnchor();
      const element = anchor ? document.getElementById(anchor) : null;
      setMissing(anchor && !element ? anchor : null);
      if (!element) return;
      element.classList.add("is-target");
      element.scrollIntoView({ block: "start" });
      if (element.tabIndex < 0) element.focus({ preventScroll: true });
    };
    show();
    window.addEventListener("hashchange", show);
    return () => window.removeEventListener("hashchange", show);
  }, [ready]);
  return missing;
}

function Contents({ doc }: { doc: RulesDocument }) {
  // Open beside the text on a wide screen; folded above it on a phone.
  const [wide] = useState(() => window.matchMedia("(min-width: 60rem)").matches);
  return (
    <nav class="rules-contents" aria-label="Contents">
      <details open={wide}>
        <summary>Contents</summary>
        <ol>
          <li>
            <a href="#in-short">In short</a>
          </li>
          {doc.sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
              {section.rules.length > 0 && (
                <ul class="rules-contents-ids" aria-label={`The rules of ${section.title}`}>
                  {section.rules.map((rule) => (
                    <li key={rule}>
                      <a href={`#${ruleAnchor(rule)}`}>{rule}</a>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ol>
      </details>
    </nav>
  );
}

type Drawing = typeof import("./rules-document");

/** The module that draws a rules document, once loaded; an error if it cannot be. */
function useDrawing(): { drawing: Drawing | null; failed: string | null } {
  const [drawing, setDrawing] = useState<Drawing | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    import("./rules-document").then(
      (module) => !stopped && setDrawing(module),
      () => !stopped && setFailed("The rules could not be drawn: reload the page to try again."),
    );
    return () => {
      stopped = true;
    };
  }, []);
  return { drawing, failed };
}

/** /rules/GAME: a game's rules on a page of their own (from the lobby, or a rule id's link). */
export function RulesPage({ game }: { game: string }) {
  const { rules, error: notFetched } = useRules(game, true);
  const { drawing, failed } = useDrawing();
  const error = notFetched ?? failed;
  const doc = useMemo(
    () => (drawing && rules?.document ? drawing.readDocument(rules.document) : null),
    [drawing, rules],
  );
  // Drawn once both have come: the rules, and the module that draws them.
  const ready = rules !== null && drawing !== null;
  const missing = useAnchorTarget(ready);
  useEffect(() => {
    document.title = rules ? `${rules.title}: rules · Courtly` : "Courtly rules";
  }, [rules]);
  return (
    <section class="panel rules-page" aria-labelledby="rules-title">
      <h1 id="rules-title">{rules ? `${rules.title}: the rules` : "The rules"}</h1>
      {!ready && !error && <p role="status">Loading the rules…</p>}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {missing && (
        <p role="status" class="rules-missing">
          {/^[a-z]+-\d+$/.test(missing)
            ? `These rules have no rule ${missing.toUpperCase()}`
            : `These rules have no part “${missing}”`}
          : here they are from the start.
        </p>
      )}
      {rules && drawing && (
        <div class={doc ? "rules-layout" : undefined}>
          {doc && <Contents doc={doc} />}
          <div class="rules-document" data-testid="rules-document">
            {doc && <drawing.Blocks tokens={doc.intro} doc={doc} game={game} />}
            <h2 id="in-short" tabIndex={-1}>
              In short
            </h2>
            <RulesText text={rules.rules} here={game} />
            {doc ? (
              doc.sections.map((section) => (
                <section key={section.id} class="rules-section">
                  <drawing.Blocks tokens={section.tokens} doc={doc} game={game} examples={section.examples} />
                </section>
              ))
            ) : (
              <p class="muted">This server has no full rules document of this game: the summary above is all.</p>
            )}
          </div>
        </div>
      )}
      <Links links={[TO_THE_LOBBY]} />
    </section>
  );
}
