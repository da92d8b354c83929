// Demo data of communication and attendance: the site administrators who receive absence notices,
// provider HTML sanitised when it is stored, and today's attendance of the Garcia children showing the
// two collapse cases of spec 4 (four absences with a full day; two after-school absences).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/index';
import * as t from '../db/schema';
import { isoDay } from '../clock';
import { safeHtml } from '../domains/provider/provider';

interface Ctx {
  db: Db;
  today: Date;
}

const SITE_ADMINS: Record<string, Record<string, string>> = {
  brightpath: {
    'Lincoln Elementary': 'lincoln.director@brightpath.example.com',
    'Washington Elementary': 'washington.director@brightpath.example.com',
    'Bright Path Center - Downtown': 'downtown.director@brightpath.example.com, downtown.office@brightpath.example.com',
  },
  northridge: {},
};

export async function seedCommunication(db: Db, ctx: Ctx): Promise<void> {
  const providers = await db.select({ id: t.providers.id, appName: t.providers.appName }).from(t.providers);
  for (const p of providers) {
    const admins = SITE_ADMINS[p.appName];
    if (!admins) continue;
    const sites = await db.select().from(t.sites).where(eq(t.sites.providerId, p.id));
    for (const s of sites) {
      // a site without a named administrator: its address follows the provider's pattern
      const email = admins[s.siteName] ?? `${s.siteName.toLowerCase().replace(/[^a-z0-9]+/g, '.').replace(/^\.|\.$/g, '')}.admin@${p.appName}.example.org`;
      await db.update(t.sites).set({ adminEmail: email }).where(eq(t.sites.id, s.id));
    }
    // provider HTML is stored sanitised (it is sanitised again when served)
    for (const a of await db.select().from(t.alerts).where(eq(t.alerts.providerId, p.id))) {
      await db.update(t.alerts).set({ alertText: safeHtml(a.alertText) }).where(eq(t.alerts.id, a.id));
    }
    for (const b of await db.select().from(t.bulletins).where(eq(t.bulletins.providerId, p.id))) {
      await db.update(t.bulletins).set({ message: safeHtml(b.message) }).where(eq(t.bulletins.id, b.id));
    }
    for (const c of await db.select().from(t.communications).where(eq(t.communications.providerId, p.id))) {
      await db.update(t.communications).set({ description: safeHtml(c.description) }).where(eq(t.communications.id, c.id));
    }
  }

  const [bp] = providers.filter((p) => p.appName === 'brightpath');
  if (!bp) return;
  const kids = await db.select().from(t.children).where(eq(t.children.providerId, bp.id));
  const sofia = kids.find((k) => k.firstName === 'Sofia');
  const lucas = kids.find((k) => k.firstName === 'Lucas');
  const emma = kids.find((k) => k.firstName === 'Emma');
  const [lincoln] = await db.select().from(t.sites).where(and(eq(t.sites.providerId, bp.id), eq(t.sites.siteName, 'Lincoln Elementary')));
  if (!sofia || !lucas || !lincoln) return;
  const today = isoDay(ctx.today);
  const absent = (childId: number, timeOffered: string, reason: string) => ({ providerId: bp.id, childId, siteId: lincoln.id, attendanceDate: today, timeOffered, absentReason: reason });
  await db.insert(t.attendance).values([
    // all absent, four absences with a full-day offering: one full-day card
    absent(sofia.id, 'BEFORE SCHOOL', 'Sick'),
    absent(sofia.id, 'AFTER SCHOOL', 'Sick'),
    absent(sofia.id, 'FULL DAY', 'Sick'),
    absent(sofia.id, 'AFTER SCHOOL', 'Sick'),
    // all absent, two after-school absences and no before-school: one after-school card
    absent(lucas.id, 'AFTER SCHOOL', 'Family vacation'),
    absent(lucas.id, 'AFTER SCHOOL', 'Family vacation'),
  ]);
  // checked in this morning and not yet picked up: Home's 'today' shows her check-in time
  if (emma?.homeSiteId) {
    await db.insert(t.attendance).values({ providerId: bp.id, childId: emma.id, siteId: emma.homeSiteId, attendanceDate: today, timeOffered: 'FULL DAY', timeIn: '08:05 AM', inBy: 'Maria Garcia' });
  }
}
