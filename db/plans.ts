import { and, asc, eq } from 'drizzle-orm'
import type { Db } from './client'
import { plans } from './schema'
import type { Plan } from '../src/core/quota'

/** A plan as stored: `selfServe` plans are the ones an account may choose on the dashboard. */
export interface PlanRecord extends Plan {
  selfServe: boolean
}

const planColumns = { id: plans.id, name: plans.name, monthlyLimit: plans.monthlyLimit, selfServe: plans.selfServe }

/** Every plan (the operator's view), smallest limit first. */
export async function listPlans(db: Db): Promise<PlanRecord[]> {
  return db.select(planColumns).from(plans).orderBy(asc(plans.monthlyLimit), asc(plans.name))
}

/** The plans an account may choose for a new key on the dashboard. */
export async function listSelfServePlans(db: Db): Promise<PlanRecord[]> {
  return db.select(planColumns).from(plans).where(eq(plans.selfServe, true)).orderBy(asc(plans.monthlyLimit), asc(plans.name))
}

export async function getPlanByName(db: Db, name: string): Promise<PlanRecord | null> {
  const [plan] = await db.select(planColumns).from(plans).where(eq(plans.name, name))
  return plan ?? null
}

/** The self-serve plan with this name; null for an unknown or operator-only plan. */
export async function getSelfServePlan(db: Db, name: string): Promise<PlanRecord | null> {
  const [plan] = await db.select(planColumns).from(plans).where(and(eq(plans.name, name), eq(plans.selfServe, true)))
  return plan ?? null
}

/**
 * Creates the plan, or sets the limit of the plan with that name. `selfServe` left out means
 * not self-serve for a new plan, and unchanged for an existing one.
 */
export async function upsertPlan(db: Db, args: { name: string; monthlyLimit: number; selfServe?: boolean }): Promise<PlanRecord> {
  const [plan] = await db
    .insert(plans)
    .values({ name: args.name, monthlyLimit: args.monthlyLimit, selfServe: args.selfServe ?? false })
    .onConflictDoUpdate({
      target: plans.name,
      set: { monthlyLimit: args.monthlyLimit, ...(args.selfServe === undefined ? {} : { selfServe: args.selfServe }) },
    })
    .returning(planColumns)
  return plan!
}
