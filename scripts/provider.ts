// npm run provider -- <area> <command>: the provider's operations, on the same database as the server
// (DATABASE_URL, else the embedded database in PGLITE_DIR or .data/pglite; the embedded one is one
// process's at a time, so stop the server first when it runs on it).
//
//   applications list [--provider APP]                     applications pending approval
//   applications approve ID --provider APP [--no-discount] enrol the child and charge the account (the
//                                                          financial assistance covers registration and
//                                                          tuition, or not); the parent is e-mailed
//   applications reject ID --provider APP                  release its seats; the child is REMOVED
//   changes list [--provider APP]                          schedule changes waiting for the provider
//   changes approve ID --provider APP                      schedule it (applied at once when its
//                                                          effective date has come)
//   changes reject ID --provider APP                       release its seats; undo its charges
//   payments unresolved [--provider APP] [--lang LANG]     refunds refused or still owed, money taken
//                                                          but not posted, payments the bank returned
//   payments failed [--provider APP] [--lang LANG]         autopay charges that failed for good (a hard
//                                                          decline, the last retry, a bank return not
//                                                          presented again) and are still unpaid
//   onetime list [--provider APP]                          one-time activities' dates, seats taken and total
//   onetime add ACTIVITY_ID DATE --provider APP [--seats N] offer a one-time activity on a date (its own
//                                                          seats, or the activity's)
//   onetime remove ACTIVITY_ID DATE --provider APP         withdraw a date nobody holds
//   punchpass list [--provider APP]                        punch passes offered, retired, and how many held
//   punchpass add PROGRAM_ID --provider APP --name NAME --price CENTS --visits N --scope child|family
//            --expires YYYY-MM-DD --refund TEXT [--texts FILE.json]
//                                                          offer a pass for a program (FILE: the name and
//                                                          refund policy in other languages, as
//                                                          {"name":{"es":..},"refundPolicy":{"es":..}})
//   punchpass retire PASS_ID --provider APP                no longer offered (passes held stay valid)
//   punchpass checkin CHILD_ID PROGRAM_ID --provider APP [--date YYYY-MM-DD]
//                                                          record a check-in in attendance; it uses one
//                                                          punch of the oldest valid pass, or none
import { join } from 'node:path';
import { openDb } from '../server/db/index';
import { ROOT } from '../server/app';
import { businessClock, systemClock } from '../server/clock';
import { createTranslator } from '../server/i18n';
import { ApprovalError, approveApplication, pendingApplications, rejectApplication } from '../server/domains/enrolment/approvals';
import { unresolvedPayments } from '../server/domains/payments/unresolved';
import { failedAutopays } from '../server/domains/payments/autopay';
import { approveChange, ChangeDecisionError, pendingChanges, rejectChange } from '../server/domains/enrolment/changeSchedule';
import { moneyText } from '../src/engine/money';
import { addOneTimeDate, OneTimeDateError, oneTimeDateList, removeOneTimeDate } from '../server/domains/enrolment/oneTime';
import { addPunchPass, punchPassList, PunchPassError, recordCheckIn, retirePunchPass } from '../server/domains/enrolment/punchPass';
import { DeclarationStore } from '../server/declarations';
import { isoDay } from '../server/clock';
import { readFileSync } from 'node:fs';

const USAGE = `Usage:
  npm run provider -- applications list [--provider APP]
  npm run provider -- applications approve REGISTRATION_ID --provider APP [--no-discount]
  npm run provider -- applications reject REGISTRATION_ID --provider APP
  npm run provider -- changes list [--provider APP]
  npm run provider -- changes approve CHANGE_ID --provider APP
  npm run provider -- changes reject CHANGE_ID --provider APP
  npm run provider -- payments unresolved [--provider APP] [--lang en|es|pt|vi]
  npm run provider -- payments failed [--provider APP] [--lang en|es|pt|vi]
  npm run provider -- onetime list [--provider APP]
  npm run provider -- onetime add ACTIVITY_ID YYYY-MM-DD --provider APP [--seats N]
  npm run provider -- onetime remove ACTIVITY_ID YYYY-MM-DD --provider APP
  npm run provider -- punchpass list [--provider APP]
  npm run provider -- punchpass add PROGRAM_ID --provider APP --name NAME --price CENTS --visits N --scope child|family --expires YYYY-MM-DD --refund TEXT [--texts FILE.json]
  npm run provider -- punchpass retire PASS_ID --provider APP
  npm run provider -- punchpass checkin CHILD_ID PROGRAM_ID --provider APP [--date YYYY-MM-DD]`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const args = process.argv.slice(2);
const [area, command, idArg] = args;
const unresolved = area === 'payments' && command === 'unresolved';
const failed = area === 'payments' && command === 'failed';
const oneTime = area === 'onetime' && ['list', 'add', 'remove'].includes(command ?? '');
const punch = area === 'punchpass' && ['list', 'add', 'retire', 'checkin'].includes(command ?? '');
if (!unresolved && !failed && !oneTime && !punch && ((area !== 'applications' && area !== 'changes') || !['list', 'approve', 'reject'].includes(command ?? ''))) {
  console.error(USAGE);
  process.exit(2);
}
const provider = option(args, '--provider');
const id = Number(idArg);
const date = args[3];
if ((oneTime || (punch && command === 'checkin')) && command !== 'list' && (!date || date.startsWith('--'))) {
  console.error(USAGE);
  process.exit(2);
}
if (!unresolved && !failed && command !== 'list' && (!Number.isInteger(id) || id < 1 || !provider)) {
  console.error(USAGE);
  process.exit(2);
}

const handle = await openDb({ databaseUrl: process.env.DATABASE_URL || undefined, pgliteDir: process.env.PGLITE_DIR || join(ROOT, '.data', 'pglite') });
try {
  if (punch) {
    if (command === 'list') {
      const rows = await punchPassList(handle.db, provider);
      if (!rows.length) console.log('No punch passes are offered.');
      for (const r of rows) console.log([r.provider, r.passID, r.name, r.program, moneyText(r.priceCents, 'en', 'US'), `${r.visits} visits`, `per ${r.scope}`, `until ${r.expiresOn}`, r.retired ? 'retired' : 'offered', `${r.held} held`].join('\t'));
    } else if (command === 'add') {
      const textsFile = option(args, '--texts');
      const passId = await addPunchPass(handle.db, provider!, {
        programPeriodID: id,
        name: option(args, '--name') ?? '',
        priceCents: Number(option(args, '--price')),
        visits: Number(option(args, '--visits')),
        scope: option(args, '--scope') as 'child' | 'family',
        expiresOn: option(args, '--expires') ?? '',
        refundPolicy: option(args, '--refund') ?? '',
        translations: textsFile ? JSON.parse(readFileSync(textsFile, 'utf8')) : {},
      });
      console.log(`Pass ${passId} is offered.`);
    } else if (command === 'retire') {
      await retirePunchPass(handle.db, provider!, id, systemClock());
      console.log(`Pass ${id} is retired: no longer offered; passes held stay valid.`);
    } else {
      // the server's clocks (PORTAL_TODAY), texts and declared rules; the server's outbox sender delivers the e-mail
      const declarations = new DeclarationStore(ROOT, async () => Object.fromEntries((await handle.db.query.providers.findMany()).map((p) => [p.appName, p.countryCode as 'US' | 'CA'])), { info: () => undefined, error: (o) => console.error(o) });
      await declarations.reload();
      const today = businessClock(systemClock);
      const deps = { db: handle.db, clock: systemClock, today, t: createTranslator(ROOT), declarations };
      const r = await recordCheckIn(deps, provider!, id, Number(date), option(args, '--date') ?? isoDay(today()));
      console.log(`Check-in ${r.attendanceID} recorded: ${r.punch ? `one punch used, ${r.punch.visitsLeft} visit(s) left on pass ${r.punch.holdingId}` : 'no valid punch pass, no punch used'}.`);
    }
  } else if (oneTime) {
    if (command === 'list') {
      const rows = await oneTimeDateList(handle.db, provider);
      if (!rows.length) console.log('No one-time dates are offered.');
      for (const r of rows) console.log([r.provider, r.activityID, r.activity, r.program, r.date, `${r.taken}/${r.total} seats taken`].join('\t'));
    } else if (command === 'add') {
      const seatsArg = option(args, '--seats');
      await addOneTimeDate(handle.db, provider!, id, date, seatsArg === undefined ? undefined : Number(seatsArg));
      console.log(`Activity ${id} is offered on ${date}.`);
    } else {
      await removeOneTimeDate(handle.db, provider!, id, date);
      console.log(`Activity ${id} is no longer offered on ${date}.`);
    }
  } else if (failed) {
    const t = createTranslator(ROOT);
    const lang = option(args, '--lang') ?? 'en';
    const rows = await failedAutopays(handle.db, provider);
    if (!rows.length) console.log(t(lang, 'methods.autopay.failed.none'));
    for (const r of rows) {
      console.log([r.provider, r.accountNo, `period ${r.servicePeriodDetailID}`, `${r.tries} tr${r.tries === 1 ? 'y' : 'ies'}`, r.chargeDate, moneyText(r.amountCents, lang, r.countryCode), t(lang, `methods.autopay.failed.classes.${r.declineClass || 'HARD'}`), r.reasonCode].join('\t'));
    }
  } else if (unresolved) {
    const t = createTranslator(ROOT);
    const lang = option(args, '--lang') ?? 'en';
    const rows = await unresolvedPayments(handle.db, systemClock(), provider);
    if (!rows.length) console.log(t(lang, 'methods.unresolved.none'));
    for (const r of rows) {
      const amount = r.amountCents ? moneyText(r.amountCents, lang, r.countryCode) : '';
      console.log([t(lang, `methods.unresolved.kinds.${r.kind}`), r.provider, r.accountNo, r.reference, r.transactionId, amount, r.at, r.detail].join('\t'));
    }
  } else if (area === 'changes') {
    // the server's clocks (PORTAL_TODAY) and texts; the server's outbox sender delivers the e-mail
    const deps = { db: handle.db, clock: systemClock, today: businessClock(systemClock), t: createTranslator(ROOT) };
    if (command === 'list') {
      const rows = await pendingChanges(handle.db, provider);
      if (!rows.length) console.log('No schedule changes are waiting for the provider.');
      for (const r of rows) {
        const kids = r.children.map((c) => `${c.name}: ${c.change}`).join(' | ');
        console.log(`${r.id}\t${r.provider}\t${r.programPeriod}\tfrom ${r.effectiveDate ?? ''}\t${kids}`);
      }
    } else if (command === 'approve') {
      const a = await approveChange(deps, provider!, id);
      console.log(`Change ${id} approved: ${a.applied ? 'applied' : `it applies on ${a.effectiveDate ?? ''}`}.`);
    } else {
      const r = await rejectChange(deps, provider!, id);
      console.log(`Change ${id} rejected: ${r.released} seat(s) released${r.creditedCents ? `, ${(r.creditedCents / 100).toFixed(2)} credited back` : ''}.`);
    }
  } else if (command === 'list') {
    const rows = await pendingApplications(handle.db, provider);
    if (!rows.length) console.log('No applications are pending approval.');
    for (const r of rows) {
      const held = r.seats.map((s) => (s.weekStart ? `${s.activity} (week of ${s.weekStart})` : s.activity)).join('; ') || 'no seats held';
      console.log(`${r.registrationID}\t${r.provider}\t${r.programPeriod}\t${r.childName}\t${r.parentName} <${r.email ?? ''}>\tsubmitted ${r.submittedOn ?? ''}\t${r.claimsDiscount ? 'discount claimed' : ''}\t${held}`);
    }
  } else if (command === 'approve') {
    const discount = !args.includes('--no-discount');
    // the server's clocks (PORTAL_TODAY) and texts; the server's outbox sender delivers the e-mail
    const deps = { db: handle.db, clock: systemClock, today: businessClock(systemClock), t: createTranslator(ROOT) };
    const a = await approveApplication(deps, provider!, id, { discount });
    console.log(`Application ${id} approved ${discount ? 'with' : 'without'} the discount: enrolled in ${a.enrolled} seat(s).`);
    console.log(`Charged ${a.text.charged}${a.waivedCents > 0 ? ` (${a.text.waived} waived)` : ''}; the account's balance is ${a.text.balance}.`);
    console.log(a.mailedTo.length ? `E-mail queued to ${a.mailedTo.join(', ')}.` : 'No e-mail: the account holder has no address.');
  } else {
    const { released } = await rejectApplication(handle.db, provider!, id);
    console.log(`Application ${id} rejected: ${released} seat(s) released.`);
  }
} catch (err) {
  if (!(err instanceof ApprovalError) && !(err instanceof ChangeDecisionError) && !(err instanceof OneTimeDateError) && !(err instanceof PunchPassError)) throw err;
  console.error(err.message);
  process.exitCode = 1;
} finally {
  await handle.close();
}
