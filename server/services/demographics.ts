// Demographics service: the account's children and adults (holders and other contacts).
import { and, asc, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { ServiceHandlers } from '../context';
import { adults, accounts, children, childAdults, gradeLevels, sites, logins, sessions } from '../db/schema';
import { HttpError } from '../errors';
import { checkNewPassword, rememberPassword } from '../passwordPolicy';

type Gender = 'M' | 'F' | 'U';

/** Spec 2.10: the stored photo (re-encoded JPEG) as a data: URL, else the default picture by gender. */
function photoUrl(photo: Uint8Array | null, fallback: 'boy' | 'girl' | 'male' | 'female'): string {
  return photo ? `data:image/jpeg;base64,${Buffer.from(photo).toString('base64')}` : `/parentportal/images/photos/${fallback}.svg`;
}

export const demographics: ServiceHandlers = {
  'Demographics.children': {
    handler: async ({ deps, session }) => {
      const s = session!;
      const rows = await deps.db
        .select({ c: children, gradeLevel: gradeLevels.gradeLevel, siteName: sites.siteName })
        .from(children)
        .leftJoin(gradeLevels, and(eq(gradeLevels.providerId, children.providerId), eq(gradeLevels.gradeLevelCode, children.gradeLevelCode)))
        .leftJoin(sites, eq(sites.id, children.homeSiteId))
        .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)))
        .orderBy(asc(children.firstName), asc(children.id));
      return rows.map(({ c, gradeLevel, siteName }) => ({
        childID: c.id,
        firstName: c.firstName,
        lastName: c.lastName,
        middleInitial: c.middleInitial,
        genderCode: c.genderCode as Gender,
        dateofBirth: c.dateOfBirth,
        gradeLevelCode: c.gradeLevelCode,
        gradeLevel: gradeLevel ?? '',
        school: c.school,
        homeSiteID: c.homeSiteId,
        homeSiteName: siteName ?? '',
        isSplit: c.splitAccountId !== null,
        // a split child is edited only by its primary account (spec 4)
        isPrimaryAccount: c.splitAccountId === null || (c.splitPercentage ?? 100) >= 50,
        hasPhoto: c.photo !== null,
        photoUrl: photoUrl(c.photo, c.genderCode === 'M' ? 'boy' : 'girl'),
        // a split child shows this account's share as X/(100-X) (spec 3)
        splitPercentage: c.splitAccountId === null ? null : (c.splitPercentage ?? 100),
        splitShare: c.splitAccountId === null ? '' : `${c.splitPercentage ?? 100}/${100 - (c.splitPercentage ?? 100)}`,
      }));
    },
  },

  'Demographics.adults': {
    handler: async ({ deps, session, query, lang }) => {
      const s = session!;
      const where = [eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), eq(adults.deleted, false)];
      if (query.AdultID) where.push(eq(adults.id, query.AdultID));
      if (query.IncludeOtherContacts === false) where.push(inArray(adults.accountHolder, [1, 2]));
      const rows = await deps.db
        .select({ a: adults, accountNo: accounts.accountNo })
        .from(adults)
        .innerJoin(accounts, eq(accounts.id, adults.accountId))
        .where(and(...where));
      if (query.AdultID && rows.length === 0) {
        throw new HttpError(404, deps.t(lang, 'errors.notFound'), { key: 'server.errors.notFound' });
      }
      const ids = rows.map((r) => r.a.id);
      const links = ids.length
        ? await deps.db
            .select({ l: childAdults, firstName: children.firstName, lastName: children.lastName })
            .from(childAdults)
            .innerJoin(children, eq(children.id, childAdults.childId))
            .where(and(eq(childAdults.providerId, s.providerId), inArray(childAdults.adultId, ids), eq(children.accountId, s.accountId)))
            .orderBy(asc(children.firstName))
        : [];
      const list = rows.map(({ a, accountNo }) => {
        const mine = links.filter((l) => l.l.adultId === a.id);
        return {
          adultID: a.id,
          accountNo,
          accountHolder: a.accountHolder as 1 | 2 | 4 | 5,
          firstName: a.firstName,
          lastName: a.lastName,
          middleInitial: a.middleInitial,
          genderCode: a.genderCode as Gender,
          streetAddress: a.streetAddress,
          apartmentNo: a.apartmentNo,
          city: a.city,
          stateCode: a.stateCode,
          zip: a.zip,
          workPhone: a.workPhone,
          workPhoneExt: a.workPhoneExt,
          homePhone: a.homePhone,
          cellPhone: a.cellPhone,
          textMessageConsent: a.textMessageConsent,
          emailOptedOut: a.emailOptedOut,
          email: a.email,
          employmentStatus: a.employmentStatus,
          employer: a.employer,
          primaryLanguage: a.primaryLanguage,
          isDistrictEmployee: a.isDistrictEmployee,
          // derived from the child-adult relationships (spec 3)
          doNotRelease: (mine.some((l) => l.l.doNotRelease) ? 1 : 0) as 0 | 1,
          hasPhoto: a.photo !== null,
          photoUrl: photoUrl(a.photo, a.genderCode === 'M' ? 'male' : 'female'),
          children: mine.map((l) => ({
            childID: l.l.childId,
            childName: `${l.firstName} ${l.lastName}`,
            relationshipId: l.l.relationshipId,
            relationship: l.l.relationship,
            isAuthorizedToPickUp: l.l.isAuthorizedToPickUp,
            isEmergencyContact: l.l.isEmergencyContact,
            isLivesWith: l.l.isLivesWith,
            doNotRelease: l.l.doNotRelease,
          })),
        };
      });
      // holders first (primary before secondary); other contacts by first name, do-not-release last
      return list.sort((x, y) => {
        const hx = x.accountHolder <= 2 ? 0 : 1;
        const hy = y.accountHolder <= 2 ? 0 : 1;
        if (hx !== hy) return hx - hy;
        if (hx === 0) return x.accountHolder - y.accountHolder || x.adultID - y.adultID;
        if (x.doNotRelease !== y.doNotRelease) return x.doNotRelease - y.doNotRelease;
        return x.firstName.localeCompare(y.firstName) || x.adultID - y.adultID;
      });
    },
  },

  'Demographics.changePassword': {
    paymentOnly: true,
    handler: async ({ deps, session, form, lang }) => {
      const s = session!;
      const v = form!.data as { mode: 'change' | 'temporary'; currentPassword?: string; newPassword: string };
      const [login] = await deps.db.select().from(logins).where(and(eq(logins.id, s.loginId), eq(logins.providerId, s.providerId)));
      // only a temporary-password session may skip the current password
      if (!s.isTemporaryPassword || v.mode === 'change') {
        if (v.mode !== 'change' || !(await deps.passwords.verify(login.passwordHash, v.currentPassword ?? ''))) {
          throw new HttpError(400, deps.t(lang, 'errors.wrongCurrentPassword'), {
            key: 'server.errors.wrongCurrentPassword',
            errors: [{ path: '/currentPassword', key: 'server.errors.wrongCurrentPassword' }],
          });
        }
      }
      if (await deps.passwords.verify(login.passwordHash, v.newPassword)) {
        throw new HttpError(400, deps.t(lang, 'errors.passwordReused'), {
          key: 'server.errors.passwordReused',
          errors: [{ path: '/newPassword', key: 'server.errors.passwordReused' }],
        });
      }
      // not common, not the user name, not an earlier password (spec 5.2)
      await checkNewPassword(deps, lang, { loginId: login.id, email: login.email, newPassword: v.newPassword });
      await rememberPassword(deps, login.id, login.passwordHash);
      await deps.db
        .update(logins)
        .set({ passwordHash: await deps.passwords.hash(v.newPassword), isTemporaryPassword: false, failedCount: 0, lockedAt: null })
        .where(eq(logins.id, login.id));
      // every other session of this login ends with the old password
      await deps.db
        .update(sessions)
        .set({ revokedAt: deps.clock() })
        .where(and(eq(sessions.loginId, login.id), ne(sessions.id, s.sessionId), isNull(sessions.revokedAt)));
      return { changed: true };
    },
  },
};
