import { asc, eq } from 'drizzle-orm'
import type { Db } from './client'
import { plans } from './schema'
import type { Plan } from '../src/core/quota'

const planColumns = { id: plans.id, name: plans.name, monthlyLimit: plans.monthlyLimit }

export async function listPlans(db: Db): Promise<Plan[]> {
  return db.select(planColumns).from(plans).orderBy(asc(plans.monthlyLimit), asc(plans.name))
}

export async function getPlanByName(db: Db, name: string): Promise<Plan | null> {
  const [plan] = await db.select(planColumns).from(plans).where(eq(plans.name, name))
  return plan ?? null
}

/** Creates the plan, or sets the limit of the plan with that name. */
export async function upsertPlan(db: Db, args: { name: string; monthlyLimit: number }): Promise<Plan> {
  const [plan] = await db
    .insert(plans)
    .values(args)
    .onConflictDoUpdate({ target: plans.name, set: { monthlyLimit: args.monthlyLimit } })
    .returning(planColumns)
  return plan!
}
