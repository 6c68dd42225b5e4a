/** The limits of the key's plan, when the target knows them (docs/explanation/design.md section 3). */
export interface PlanLimits {
  perMinute: number;
  perDay: number;
}
