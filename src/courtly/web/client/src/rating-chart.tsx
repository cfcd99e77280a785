// A rating's history drawn as a chart: the rating shown (mu - 3 sigma) after each rated game, and
// the band mu ± 3 sigma around it (how sure the rating is), in SVG (no chart library).
import type { RatingHistory } from "./api";

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 44, right: 12, top: 12, bottom: 28 };

export function RatingChart({ history, label }: { history: RatingHistory; label: string }) {
  const steps = history.steps;
  if (steps.length === 0) return null;
  const lows = steps.map((s) => s.mu - 3 * s.sigma);
  const highs = steps.map((s) => s.mu + 3 * s.sigma);
  let low = Math.floor(Math.min(0, ...lows) / 5) * 5;
  let high = Math.ceil(Math.max(...highs) / 5) * 5;
  if (high === low) high = low + 5;
  const x = (index: number) =>
    PAD.left + (steps.length === 1 ? 0.5 : index / (steps.length - 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (value: number) =>
    PAD.top + (1 - (value - low) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
  const line = steps.map((s, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(s.rating).toFixed(1)}`).join(" ");
  const band =
    steps.map((s, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(s.mu + 3 * s.sigma).toFixed(1)}`).join(" ") +
    " " +
    steps
      .map((s, i) => [i, s] as const)
      .reverse()
      .map(([i, s]) => `L${x(i).toFixed(1)},${y(s.mu - 3 * s.sigma).toFixed(1)}`)
      .join(" ") +
    " Z";
  const ticks = [low, (low + high) / 2, high];
  const last = steps[steps.length - 1];
  return (
    <figure class="rating-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${label}: ${steps.length} rated games, now ${last.rating.toFixed(1)}`}
      >
        <path d={band} class="rating-band" />
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(t)} y2={y(t)} class="rating-grid" />
            <text x={PAD.left - 6} y={y(t) + 4} text-anchor="end" class="rating-tick">
              {Math.round(t)}
            </text>
          </g>
        ))}
        <path d={line} class="rating-line" />
        {steps.map((s, i) => (
          <circle key={s.table} cx={x(i)} cy={y(s.rating)} r={3} class="rating-point">
            <title>{`${new Date(s.at * 1000).toLocaleDateString()}: ${s.rating.toFixed(1)}`}</title>
          </circle>
        ))}
        <text x={PAD.left} y={HEIGHT - 8} class="rating-tick">
          first rated game
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 8} text-anchor="end" class="rating-tick">
          last
        </text>
      </svg>
      <figcaption>
        {label}: the rating shown (μ − 3σ) after each rated game; the band is μ ± 3σ.
      </figcaption>
    </figure>
  );
}
