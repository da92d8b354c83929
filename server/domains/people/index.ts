// The people resources (spec 2.9, 2.10, 3, 4, 5.3, 5.4, 5.7, 6, 7.2), one file each: adults,
// children, medical information, photos, PINs, relations (and the account flags) and master data,
// over the look-ups and mappers in shared.ts. Every id in a request is looked up within the signed-in
// provider and account (404 otherwise); every blocked action is refused with 403 by the same declared rules the screens use (rules/account.rules.json).
import { adultHandlers } from './adults';
import { childHandlers } from './children';
import { masterDataHandlers } from './masterData';
import { medicalHandlers } from './medical';
import { photoHandlers } from './photos';
import { pinHandlers } from './pins';
import { relationHandlers } from './relations';

export const people = { ...adultHandlers, ...childHandlers, ...medicalHandlers, ...photoHandlers, ...pinHandlers, ...relationHandlers, ...masterDataHandlers };
