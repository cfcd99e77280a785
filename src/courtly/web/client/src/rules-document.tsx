// A game's rules document (docs/rules/<game>.md, Markdown) drawn as a page: its sections with a
// table of contents, paragraphs, lists and tables, the cards in its text drawn as cards, every
// rule id an anchor (/rules/royal-gambit#rg-6) and every mention of one a link to it, the worked
// examples each an anchor too (#example-4).
//
// marked only parses the text into tokens; the elements are made here, by Preact, so every text
// is escaped and no HTML of the document's (nor anyone's) is ever injected: raw HTML is shown as
// the text it is, and a link goes only to the web (http, https), to another game's rules page
// or to an anchor of this one.
import { Fragment, type ComponentChildren } from "preact";
import { Lexer, type Token, type Tokens } from "marked";
import { Card } from "./cards";
import { onLinkClick, rulesPath } from "./router";
import { gameOfRule, ruleAnchor, rulePath, splitRuleIds } from "./shared/rule-links";

/** A section of the document (a "## " heading and what follows it, up to the next one). */
export interface Section {
  id: string;
  title: string;
  tokens: Token[];
  /** The rule ids it defines, in order (for the table of contents). */
  rules: string[];
  /** The worked examples: a card written as code there is a card played, drawn as a card. */
  examples: boolean;
}

export interface RulesDocument {
  /** What comes before the first section, the document's own title ("# ") left out. */
  intro: Token[];
  sections: Section[];
  /** The anchor of each token that has one: a section's heading, a rule, a worked example. */
  anchors: WeakMap<object, string>;
}

/** A rule id written as a heading ("RG-9. The 7 in detail") or as a paragraph's bold label
 * ("**GSK-12 — "Once per hand".**"). */
const RULE_HEADING = /^([A-Z]+-\d+)\.\s/;
const RULE_LABEL = /^([A-Z]+-\d+)\s+—/;

/** The rule a token starts (defines), if it does. */
function definedRule(token: Token): string | null {
  let found: RegExpExecArray | null = null;
  if (token.type === "heading" && token.depth >= 3) found = RULE_HEADING.exec(token.text);
  if (token.type === "paragraph") {
    const first = token.tokens?.[0];
    if (first?.type === "strong") found = RULE_LABEL.exec(first.text);
  }
  return found && gameOfRule(found[1]) !== null ? found[1] : null;
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** The document's tokens, cut into its sections, with the anchors of its headings, rules and
 * worked examples (each anchor once: the first token that claims it keeps it). */
export function readDocument(markdown: string): RulesDocument {
  const anchors = new WeakMap<object, string>();
  const taken = new Set<string>();
  const claim = (token: object, id: string): void => {
    if (!id || taken.has(id)) return;
    taken.add(id);
    anchors.set(token, id);
  };
  const intro: Token[] = [];
  const sections: Section[] = [];
  for (const token of new Lexer({ gfm: true }).lex(markdown)) {
    if (token.type === "heading" && token.depth === 1) continue; // the page has its own title
    if (token.type === "heading" && token.depth === 2) {
      const numbered = /^(\d+)\.\s/.exec(token.text);
      const id = numbered ? `section-${numbered[1]}` : slug(token.text);
      const examples = /worked examples/i.test(token.text);
      sections.push({ id, title: token.text, tokens: [token], rules: [], examples });
      claim(token, id);
      continue;
    }
    const section = sections[sections.length - 1];
    (section ? section.tokens : intro).push(token);
    const rule = definedRule(token);
    if (rule !== null && !taken.has(ruleAnchor(rule))) {
      claim(token, ruleAnchor(rule));
      section?.rules.push(rule);
    } else if (token.type === "heading" && section) {
      claim(token, `${section.id}-${slug(token.text)}`);
    }
    if (token.type === "list" && token.ordered && section?.examples) {
      const start = typeof token.start === "number" ? token.start : 1;
      (token as Tokens.List).items.forEach((item, index) => claim(item, `example-${start + index}`));
    }
  }
  return { intro, sections, anchors };
}

// ------------------------------------------------------------------------------ inline text

/** A card in running text ("7H", "10S", "Jk"), not inside a word or a rule id ("KC-9"), with
 * the bracket before it and the punctuation after it, which stay on its line: "(9H, 2H)", "{6H, 2S}". */
const CARD_IN_TEXT = /(?<![\w-])([({[]?)((?:10|[2-9AJQK])[SHDC]|Jk)(?![\w-])([)}\],.;:!?]*)/g;

/** A text that is one card, and nothing else. */
const CARD_ALONE = /^(?:(?:10|[2-9AJQK])[SHDC]|Jk)$/;

/** The few character references Markdown text may carry, read as the characters they are. */
const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/** Text with its cards drawn as small cards. */
function withCards(text: string): ComponentChildren {
  const parts: ComponentChildren[] = [];
  let at = 0;
  for (const match of text.matchAll(CARD_IN_TEXT)) {
    const start = match.index ?? 0;
    if (start > at) parts.push(text.slice(at, start));
    const [, before, card, after] = match;
    parts.push(
      <span key={start} class="card-in-text">
        {before}
        <Card code={card} small />
        {after}
      </span>,
    );
    at = start + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

interface Context {
  /** The game whose rules page this is: its rule ids link to anchors here. */
  game: string;
  /** In the worked examples, a card written as code ("plays `7H`") is drawn as a card. */
  examples: boolean;
  /** A rule being defined: its own id is not a link to itself. */
  defining: string | null;
}

/** Running text: cards drawn, rule ids linked (to this page, or to their game's page). */
function prose(text: string, context: Context): ComponentChildren {
  return splitRuleIds(decode(text)).map((piece, index) => {
    if (typeof piece === "string") return <Fragment key={index}>{withCards(piece)}</Fragment>;
    const { rule, game } = piece;
    if (rule === context.defining) return <Fragment key={index}>{rule}</Fragment>;
    if (game === context.game) {
      return (
        <a key={index} class="rule-link" href={`#${ruleAnchor(rule)}`}>
          {rule}
        </a>
      );
    }
    return (
      <a key={index} class="rule-link" href={rulePath(piece)} onClick={onLinkClick}>
        {rule}
      </a>
    );
  });
}

/** Where a link of the document may go: the web, another game's rules page; nowhere else (a
 * file of the repository, a script). */
function safeHref(href: string): { href: string; inside: boolean } | null {
  if (/^https?:\/\//i.test(href)) return { href, inside: false };
  const other = /^([a-z0-9-]+)\.md(#[a-z0-9-]+)?$/.exec(href);
  if (other && other[1] !== "README") return { href: rulesPath(other[1]) + (other[2] ?? ""), inside: true };
  if (/^#[a-z0-9-]+$/.test(href)) return { href, inside: true };
  return null;
}

function inline(tokens: Token[] | undefined, context: Context): ComponentChildren {
  const list = tokens ?? [];
  const parts: ComponentChildren[] = [];
  for (let index = 0; index < list.length; index++) {
    const token = list[index];
    const next = list[index + 1];
    const card = token.type === "codespan" && context.examples && CARD_ALONE.test(token.text) ? token.text : null;
    const after = next?.type === "text" && !next.tokens ? next.text : "";
    const stuck = /^[),.;:!?]+/.exec(after);
    if (card !== null && stuck) {
      // A card played in an example keeps the punctuation after it on its line: "plays KD: ...".
      parts.push(
        <span key={index} class="card-in-text">
          <Card code={card} small />
          {stuck[0]}
        </span>,
      );
      parts.push(<Fragment key={`${index}+`}>{prose(after.slice(stuck[0].length), context)}</Fragment>);
      index++;
      continue;
    }
    parts.push(<Fragment key={index}>{inlineToken(token, context)}</Fragment>);
  }
  return parts;
}

function inlineToken(token: Token, context: Context): ComponentChildren {
  switch (token.type) {
    case "text":
      return token.tokens ? inline(token.tokens, context) : prose(token.text, context);
    case "escape":
      return token.text;
    case "strong":
      return <strong>{inline(token.tokens, context)}</strong>;
    case "em":
      return <em>{inline(token.tokens, context)}</em>;
    case "del":
      return <del>{inline(token.tokens, context)}</del>;
    case "codespan": {
      // What a person types (`give-7 p2`, `10H`): kept as the words to type, but for a card
      // that a worked example plays.
      const text = decode(token.text);
      return context.examples && CARD_ALONE.test(text) ? <Card code={text} small /> : <code>{text}</code>;
    }
    case "br":
      return <br />;
    case "link": {
      const target = safeHref(token.href);
      if (target === null) return inline(token.tokens, context);
      return target.inside ? (
        <a href={target.href} onClick={target.href.startsWith("#") ? undefined : onLinkClick}>
          {inline(token.tokens, context)}
        </a>
      ) : (
        <a href={target.href} rel="noopener noreferrer">
          {inline(token.tokens, context)}
        </a>
      );
    }
    case "image":
      return token.text; // its words: the page shows no picture from elsewhere
    case "html":
      return token.text; // shown as the text it is, never as HTML
    default:
      return "raw" in token ? String(token.raw) : null;
  }
}

// ------------------------------------------------------------------------------ blocks

/** Block tokens, each rule (a rule heading or a rule's labelled paragraph, with what follows it
 * up to the next rule or heading) in one box that carries its anchor. */
export function Blocks({
  tokens,
  doc,
  game,
  examples = false,
}: {
  tokens: Token[];
  doc: RulesDocument;
  game: string;
  examples?: boolean;
}) {
  const groups: { rule: string | null; anchor: string | null; tokens: Token[] }[] = [];
  for (const token of tokens) {
    const rule = definedRule(token);
    const anchor = doc.anchors.get(token) ?? null;
    const last = groups[groups.length - 1];
    if (rule !== null && anchor === ruleAnchor(rule)) groups.push({ rule, anchor, tokens: [token] });
    else if (token.type === "heading" || !last) groups.push({ rule: null, anchor: null, tokens: [token] });
    else last.tokens.push(token); // a rule's box runs on to the next rule or heading
  }
  return (
    <>
      {groups.map((group, index) =>
        group.rule === null ? (
          <Fragment key={index}>
            {group.tokens.map((token, at) => (
              <Block key={at} token={token} doc={doc} context={{ game, examples, defining: null }} />
            ))}
          </Fragment>
        ) : (
          <div key={index} class="rule" id={group.anchor ?? undefined} data-rule={group.rule} tabIndex={-1}>
            {group.tokens.map((token, at) => (
              <Block
                key={at}
                token={token}
                doc={doc}
                context={{ game, examples, defining: at === 0 ? group.rule : null }}
                anchored={at === 0}
              />
            ))}
          </div>
        ),
      )}
    </>
  );
}

function Block({
  token,
  doc,
  context,
  anchored = false,
}: {
  token: Token;
  doc: RulesDocument;
  context: Context;
  /** The token's anchor is carried by the box around it (a rule). */
  anchored?: boolean;
}) {
  const id = anchored ? undefined : doc.anchors.get(token);
  switch (token.type) {
    case "heading": {
      const Heading = token.depth <= 2 ? "h2" : token.depth === 3 ? "h3" : "h4";
      return (
        <Heading id={id} class="rules-doc-heading" tabIndex={id ? -1 : undefined}>
          {inline(token.tokens, context)}
        </Heading>
      );
    }
    case "paragraph":
      return <p id={id}>{inline(token.tokens, context)}</p>;
    case "text":
      return <p>{token.tokens ? inline(token.tokens, context) : prose(token.text, context)}</p>;
    case "list":
      return <List list={token as Tokens.List} doc={doc} context={context} />;
    case "table":
      return <Table table={token as Tokens.Table} context={context} />;
    case "blockquote":
      return (
        <blockquote>
          {token.tokens?.map((inner, index) => <Block key={index} token={inner} doc={doc} context={context} />)}
        </blockquote>
      );
    case "code":
      return (
        <pre class="rules-doc-code">
          <code>{token.text}</code>
        </pre>
      );
    case "hr":
      return <hr />;
    case "html":
      return <p>{token.text}</p>; // shown as the text it is, never as HTML
    default:
      return null; // space, link definitions
  }
}

function List({ list, doc, context }: { list: Tokens.List; doc: RulesDocument; context: Context }) {
  const items = list.items.map((item, index) => {
    const id = doc.anchors.get(item);
    // A tight item's text is inline; a loose one's is paragraphs (and lists, tables).
    const body = item.tokens.map((inner, at) =>
      inner.type === "text" ? (
        <Fragment key={at}>{inner.tokens ? inline(inner.tokens, context) : prose(inner.text, context)}</Fragment>
      ) : (
        <Block key={at} token={inner} doc={doc} context={context} />
      ),
    );
    return (
      <li key={index} id={id} class={id ? "worked-example" : undefined} tabIndex={id ? -1 : undefined}>
        {body}
      </li>
    );
  });
  if (!list.ordered) return <ul>{items}</ul>;
  const start = typeof list.start === "number" ? list.start : 1;
  return <ol start={start === 1 ? undefined : start}>{items}</ol>;
}

/** A table wider than a phone in words (three columns or more, a long row): on a phone each of
 * its rows is drawn as a box of its own, each cell under its column's name. */
function isWide(table: Tokens.Table): boolean {
  const longest = Math.max(0, ...table.rows.map((row) => row.reduce((sum, cell) => sum + cell.text.length, 0)));
  return table.header.length >= 3 && longest > 60;
}

function Table({ table, context }: { table: Tokens.Table; context: Context }) {
  const align = (index: number) => table.align[index] ?? undefined;
  // The roles keep the table a table for screen readers when a phone draws its rows as boxes.
  return (
    <div class={isWide(table) ? "rules-doc-table rules-doc-table-wide" : "rules-doc-table"}>
      <table role="table">
        <thead role="rowgroup">
          <tr role="row">
            {table.header.map((cell, index) => (
              <th key={index} role="columnheader" scope="col" style={{ textAlign: align(index) }}>
                {inline(cell.tokens, context)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {table.rows.map((row, at) => (
            <tr key={at} role="row">
              {row.map((cell, index) => (
                <td key={index} role="cell" style={{ textAlign: align(index) }}>
                  {index > 0 && (
                    <span class="cell-label" aria-hidden="true">
                      {inline(table.header[index]?.tokens, context)}:{" "}
                    </span>
                  )}
                  {inline(cell.tokens, context)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
