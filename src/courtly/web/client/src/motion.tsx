// Short animations around the table (a card dealt in, the turn banner, a seat's last move), and
// the switch that turns them off. The choice is remembered in this browser; without one, a
// system that asks for reduced motion gets none.
import { useEffect, useState } from "preact/hooks";

const KEY = "courtly.animations";
const REDUCED = "(prefers-reduced-motion: reduce)";

function chosen(): "on" | "off" | null {
  try {
    const value = localStorage.getItem(KEY);
    return value === "on" || value === "off" ? value : null;
  } catch {
    return null;
  }
}

function systemReduces(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia(REDUCED).matches;
}

export function animationsOn(): boolean {
  const choice = chosen();
  return choice === null ? !systemReduces() : choice === "on";
}

/** The page's CSS animates only under `html[data-motion=on]`. */
function apply(on: boolean): void {
  document.documentElement.dataset.motion = on ? "on" : "off";
}

// Every page that imports this (the table, the replay) starts as chosen, before any drawing.
apply(animationsOn());

export function useAnimations(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(animationsOn);
  useEffect(() => {
    apply(on);
  }, [on]);
  useEffect(() => {
    // The system's setting may change while the page is open (and counts while no choice is made).
    if (typeof window.matchMedia !== "function") return;
    const query = window.matchMedia(REDUCED);
    const changed = () => setOn(animationsOn());
    query.addEventListener("change", changed);
    return () => query.removeEventListener("change", changed);
  }, []);
  const choose = (value: boolean) => {
    try {
      localStorage.setItem(KEY, value ? "on" : "off");
    } catch {
      // Storage refused (private mode): the choice holds for this page.
    }
    apply(value); // at once, not after the next paint: the click's effect is visible on return
    setOn(value);
  };
  return [on, choose];
}

/** The switch, labelled for what it does. */
export function AnimationSwitch() {
  const [on, choose] = useAnimations();
  return (
    <label class="motion-switch">
      <input
        type="checkbox"
        checked={on}
        onChange={(event) => choose((event.target as HTMLInputElement).checked)}
      />{" "}
      Animations
    </label>
  );
}
