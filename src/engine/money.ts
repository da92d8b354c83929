// Money is integer cents (amendment 8): in the database, the server and the fee engine. Decimal
// dollars exist only in the API's Billing and Registration amounts (spec 7 and 9: amounts with 2
// decimals) and in what a parent types there; they become cents and back here, one function each
// way, on the server and in the browser. moneyText is the one way an amount becomes text.

const moneyFormats = new Map<string, Intl.NumberFormat>();
const isEnglish = (lang: string | null | undefined) => !lang || lang === 'en' || lang.startsWith('en-');

/**
 * An amount in cents as the parent reads it, the same in the portal, e-mails and PDFs: the
 * language's own conventions for a dollar amount (Intl, `<lang>-US`: $1,305.00 in English and
 * Spanish, $ 1.305,00 in Portuguese, 1.305,00 $ in Vietnamese), the narrow symbol "$" for US and
 * Canadian dollars alike, a negative amount in brackets. English is written out by hand: building
 * the first Intl.NumberFormat loads the browser's number data, a long pause on a cheap phone.
 */
export function moneyText(cents: number, lang: string, _country?: string): string {
  if (!Number.isFinite(cents)) return '';
  const abs = Math.abs(Math.round(cents));
  let text: string;
  if (isEnglish(lang)) {
    const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
    text = `$${whole}.${String(abs % 100).padStart(2, '0')}`;
  } else {
    let f = moneyFormats.get(lang);
    if (!f) moneyFormats.set(lang, (f = new Intl.NumberFormat(`${lang}-US`, { style: 'currency', currency: 'USD', currencyDisplay: 'narrowSymbol' })));
    text = f.format(abs / 100);
  }
  return cents < 0 && abs > 0 ? `(${text})` : text;
}

/** Cents as an API amount: dollars with two decimals. */
export function amountOfCents(cents: number): number {
  return Math.round(cents) / 100;
}

/**
 * An API amount (a number, or the text a parent typed: "125.5") as cents, exactly: from its decimal
 * digits, not by multiplying a float, rounded half up at the third decimal; NaN when it is not one.
 */
export function centsOfAmount(amount: unknown): number {
  const text = typeof amount === 'number' ? (Number.isFinite(amount) ? String(amount) : '') : typeof amount === 'string' ? amount.trim() : '';
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return NaN;
  const frac = m[3] ?? '';
  const cents = Number(m[2]) * 100 + Number(frac.slice(0, 2).padEnd(2, '0')) + (frac.charCodeAt(2) >= 53 ? 1 : 0); // 53: '5'
  if (!Number.isSafeInteger(cents)) return NaN;
  return m[1] && cents ? -cents : cents;
}
