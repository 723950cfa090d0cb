import { describe, expect, it } from 'vitest'
import { TurnBudget } from '../src/turn-budget'

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('TurnBudget', () => {
  it('runs at most one piece past the budget per event-loop turn, in order', async () => {
    const budget = new TurnBudget(25)
    const ran: number[] = []
    for (let i = 0; i < 10; i++) {
      budget.run(() => {
        ran.push(i)
        return 10
      })
    }
    // 10 + 10 + 10 crosses 25: the third runs whole, the rest wait for later turns.
    expect(ran).toEqual([0, 1, 2])
    const perTurn: number[] = [ran.length]
    while (budget.waiting > 0) {
      const before = ran.length
      await nextTurn()
      perTurn.push(ran.length - before)
    }
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(Math.max(...perTurn)).toBe(3)
  })

  it('keeps the order: a cheap piece never overtakes a waiting one', async () => {
    const budget = new TurnBudget(5)
    const ran: string[] = []
    const piece = (name: string, cost: number) => () => {
      ran.push(name)
      return cost
    }
    budget.run(piece('big', 100))
    budget.run(piece('small', 0))
    expect(ran).toEqual(['big'])
    await nextTurn()
    expect(ran).toEqual(['big', 'small'])
  })

  it('flush runs everything still waiting now', () => {
    const budget = new TurnBudget(1)
    let ran = 0
    for (let i = 0; i < 5; i++) {
      budget.run(() => {
        ran++
        return 1
      })
    }
    expect(ran).toBe(1)
    budget.flush()
    expect({ ran, waiting: budget.waiting }).toEqual({ ran: 5, waiting: 0 })
  })
})
