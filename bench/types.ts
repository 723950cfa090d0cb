/** One measured figure of a workload, as printed in the `pnpm bench` table. */
export interface BenchRow {
  workload: string
  metric: string
  value: number
  unit: string
  note?: string
}

/** A workload module default-exports one of these. */
export type BenchWorkload = () => Promise<BenchRow[]>
