// Rule ids in a game's words ("you bust (RG-6)", "GSK-24") as links to that rule on the game's
// rules page (/rules/royal-gambit#rg-6), where its anchor is. A rule id names its game by its
// prefix, as docs/rules/README.md lists them, so a line links without knowing its table's game.
import { Fragment, type ComponentChildren } from "preact";
import { RichText, type SeatNamer } from "../cards";
import { rulesPath } from "../router";

/** Each game's rule-id prefix (docs/rules/README.md: "Rule ids"). */
const GAME_OF_PREFIX: Record<string, string> = {
  GSK: "god-save-the-king",
  CTC: "crush-the-crown",
  RG: "royal-gambit",
  GOTH: "goths-save-the-queen",
  KC: "kings-court",
};

/** A rule id: a known prefix, a hyphen, a number ("GOTH-23"); not inside a longer word. */
const RULE_ID = new RegExp(`(?<![\\w-])(${Object.keys(GAME_OF_PREFIX).join("|")})-(\\d{1,3})(?![\\w-])`, "g");

/** The anchor of a rule on its rules page: "RG-6" is "rg-6". */
export function ruleAnchor(id: string): string {
  return id.toLowerCase();
}

/** The game a rule id belongs to ("RG-6": "royal-gambit"), or null for no rule id. */
export function gameOfRule(id: string): string | null {
  const match = /^([A-Z]+)-\d+$/.exec(id);
  return match ? (GAME_OF_PREFIX[match[1]] ?? null) : null;
}

/** A rule id in a text, and its game. */
export interface RuleMention {
  rule: string;
  game: string;
}

/** Where a rule is: its game's rules page at its anchor ("/rules/royal-gambit#rg-6"). */
export function rulePath({ rule, game }: RuleMention): string {
  return `${rulesPath(game)}#${ruleAnchor(rule)}`;
}

/** ``text`` cut at its rule ids: the pieces between them (strings) and the ids themselves. */
export function splitRuleIds(text: string): (string | RuleMention)[] {
  const pieces: (string | RuleMention)[] = [];
  let at = 0;
  for (const match of text.matchAll(RULE_ID)) {
    const start = match.index ?? 0;
    if (start > at) pieces.push(text.slice(at, start));
    pieces.push({ rule: match[0], game: GAME_OF_PREFIX[match[1]] });
    at = start + match[0].length;
  }
  if (at < text.length) pieces.push(text.slice(at));
  return pieces;
}

/** ``text`` with each rule id a link; the rest drawn by ``draw`` (cards as cards, seats named).
 * A rule of ``here`` (the game whose rules page this is) goes to its anchor on this very page;
 * any other opens its game's rules page in a new tab: a table's game goes on in this one. */
export function RuleLinks({
  text,
  draw = (piece) => piece,
  here,
}: {
  text: string;
  draw?: (piece: string) => ComponentChildren;
  here?: string;
}) {
  return (
    <>
      {splitRuleIds(text).map((piece, index) => {
        if (typeof piece === "string") return <Fragment key={index}>{draw(piece)}</Fragment>;
        const { rule, game } = piece;
        if (game === here) {
          return (
            <a key={index} class="rule-link" href={`#${ruleAnchor(rule)}`}>
              {rule}
            </a>
          );
        }
        return (
          <a
            key={index}
            class="rule-link"
            href={rulePath(piece)}
            target="_blank"
            rel="noopener"
            aria-label={`${rule}, the rule (opens in a new tab)`}
            title={`Rule ${rule}, in a new tab`}
          >
            {rule}
          </a>
        );
      })}
    </>
  );
}

/** A game's words as a table shows them: its cards drawn as cards, its seats named, its rule
 * ids links to their rule (in a new tab). */
export function GameWords({ text, seatName }: { text: string; seatName: SeatNamer }) {
  return <RuleLinks text={text} draw={(piece) => <RichText text={piece} seatName={seatName} />} />;
}
