// The ways out of a page: links inside the app in a row, "·" between them, each followed without
// reloading the page.
import { Fragment, type ComponentChildren } from "preact";
import { onLinkClick } from "../router";

/** Each link as its path and its words; ``children`` say something before them. */
export function Links({ links, children }: { links: [path: string, words: string][]; children?: ComponentChildren }) {
  return (
    <p>
      {children}
      {links.map(([path, words], index) => (
        <Fragment key={path}>
          {index > 0 && (
            <>
              {" "}·{" "}
            </>
          )}
          <a href={path} onClick={onLinkClick}>
            {words}
          </a>
        </Fragment>
      ))}
    </p>
  );
}

/** The link that every way out ends with. */
export const TO_THE_LOBBY: [string, string] = ["/", "Back to the lobby"];
