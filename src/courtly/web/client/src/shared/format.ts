// Numbers as the pages write them.

/** A chance as a whole percentage: 0.634 -> "63%". */
export function percent(value: number): string {
  return `${Math.round(100 * value)}%`;
}
