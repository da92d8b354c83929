// The account's ledger (amendment 8): every amount in integer cents. Charges, late fees and refunds
// raise what the account owes; payments and credits lower it. What is owed, past due, next due and
// each invoice's open rest are derived here, with payments and credits applied to the oldest due
// charge first, so no balance is ever stored twice.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/index';
import { prepared } from '../../db/prepared';
import { ledgerEntries } from '../../db/schema';

export type LedgerKind = 'CHARGE' | 'LATE_FEE' | 'REFUND' | 'RETURN' | 'PAYMENT' | 'CREDIT';
// RETURN: a payment the bank sent back raises the balance by what it had lowered
const RAISES: ReadonlySet<string> = new Set(['CHARGE', 'LATE_FEE', 'REFUND', 'RETURN']);

export interface LedgerRow {
  id: number;
  kind: string;
  amountCents: number;
  entryDate: string;
  dueDate: string | null;
  invoiceId: number | null;
}

export interface AccountMoney {
  /** what the account owes (negative: what it is owed) */
  balanceCents: number;
  /** the open rest of charges due before today */
  pastDueCents: number;
  /** the earliest due date of a charge not paid in full */
  paymentDue: string | null;
  /** what the account is owed (a negative balance), else 0 */
  creditCents: number;
  /** open rest per invoice id */
  invoiceOpenCents: Map<number, number>;
}

/** Pure: the account's figures from its ledger rows on the business day `today` (yyyy-mm-dd). */
export function accountMoneyOf(rows: LedgerRow[], today: string): AccountMoney {
  const debits = rows
    .filter((r) => RAISES.has(r.kind))
    .map((r) => ({ ...r, due: r.dueDate ?? r.entryDate, open: r.amountCents }))
    .sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : a.id - b.id));
  let paid = rows.filter((r) => !RAISES.has(r.kind)).reduce((n, r) => n + r.amountCents, 0);
  const owed = debits.reduce((n, r) => n + r.amountCents, 0);
  for (const d of debits) {
    const applied = Math.min(d.open, paid);
    d.open -= applied;
    paid -= applied;
  }
  const invoiceOpenCents = new Map<number, number>();
  for (const d of debits) if (d.invoiceId !== null) invoiceOpenCents.set(d.invoiceId, (invoiceOpenCents.get(d.invoiceId) ?? 0) + d.open);
  const balanceCents = owed - rows.filter((r) => !RAISES.has(r.kind)).reduce((n, r) => n + r.amountCents, 0);
  return {
    balanceCents,
    pastDueCents: debits.filter((d) => d.due < today).reduce((n, d) => n + d.open, 0),
    paymentDue: debits.find((d) => d.open > 0)?.due ?? null,
    creditCents: Math.max(0, -balanceCents),
    invoiceOpenCents,
  };
}

export async function ledgerRows(db: Db, providerId: number, accountId: number): Promise<LedgerRow[]> {
  return prepared(db, 'ledger_rows', (d) =>
    d
      .select({ id: ledgerEntries.id, kind: ledgerEntries.kind, amountCents: ledgerEntries.amountCents, entryDate: ledgerEntries.entryDate, dueDate: ledgerEntries.dueDate, invoiceId: ledgerEntries.invoiceId })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.providerId, sql.placeholder('providerId')), eq(ledgerEntries.accountId, sql.placeholder('accountId'))))
      .orderBy(asc(ledgerEntries.id))
      .prepare('ledger_rows'),
  ).execute({ providerId, accountId });
}

export async function accountMoney(db: DbOrTx, providerId: number, accountId: number, today: string): Promise<AccountMoney> {
  return accountMoneyOf(await ledgerRows(db, providerId, accountId), today);
}
